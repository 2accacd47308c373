import Foundation
import PhotoTestSupport
import Testing

/// Descriptions and file names are written by whoever made the photo: photoctl shows their
/// control characters escaped in every table and line, and keeps them exact in JSON.
@Suite(.serialized) struct TerminalEscapingTests {
    /// Sets the terminal title, puts a command into the clipboard (OSC 52), clears the screen.
    static let hostile = "Beach\u{1B}]0;owned\u{07}\u{1B}]52;c;cm0gLXJmIH4=\u{07}\u{1B}[2J"
    /// A newline that would start a forged row, and a colour escape.
    static let hostileName = "a\nzzzzzzzzzzzzzzzz  Other  forged\u{1B}[31m.jpg"

    static func expectNothingActs(_ output: String, _ command: [String]) {
        let acting = output.unicodeScalars.filter { $0.value == 0x1B || $0.value == 0x07 }
        #expect(acting.isEmpty, "photoctl \(command) wrote \(acting.count) raw control characters: \(output.debugDescription)")
    }

    @Test func everyCommandShowsHostileTextEscaped() async throws {
        let daemon = try DaemonHarness()
        try daemon.add(Self.hostileName, Photo.jpeg(Self.hostile))
        try await daemon.start()
        let assets = try #require(try await daemon.photoctlJSON(["list"])["assets"] as? [[String: Any]])
        let id = try #require(assets.first?["id"] as? String)
        #expect(assets.first?["group"] as? String == Self.hostile)

        for command in [["groups"], ["list"], ["list", Self.hostile], ["show", id], ["status"]] {
            let result = try await daemon.photoctl(command)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            Self.expectNothingActs(result.stdout + result.stderr, command)
        }
        let list = try await daemon.photoctl(["list"])
        #expect(list.stdout.split(separator: "\n").count == 2, "header and one row: \(list.stdout)")
        #expect(list.stdout.contains("a\\u{0A}zzzzzzzzzzzzzzzz  Other  forged\\u{1B}[31m.jpg"), "\(list.stdout)")
        #expect(list.stdout.contains("Beach\\u{1B}]0;owned\\u{07}"))

        // A group name given back (an unknown one echoes in the error) is escaped on stderr too.
        let missing = try await daemon.photoctl(["list", "No\u{1B}[2JSuch"])
        #expect(missing.status == 1)
        Self.expectNothingActs(missing.stderr, ["list", "No…Such"])
    }

    @Test func aFileNameThatIsNotUTF8IsShownByteForByte() async throws {
        let daemon = try DaemonHarness()
        try FileManager.default.createDirectory(atPath: daemon.library + "/raw", withIntermediateDirectories: true)
        try RawFile.write(path: Array((daemon.library + "/raw/bad").utf8) + [0xFF, 0xFE] + Array("\u{1B}[31m.jpg".utf8),
                          contents: Photo.jpeg("Beach"))
        try await daemon.start()
        for command in [["list"], ["list", "Beach"]] {
            let result = try await daemon.photoctl(command)
            #expect(result.status == 0)
            Self.expectNothingActs(result.stdout, command)
            #expect(result.stdout.contains("/raw/bad\\x{FF}\\x{FE}\\u{1B}[31m.jpg"), "\(result.stdout)")
        }
    }

    @Test func jsonKeepsTheExactTextWithControlsEscapedByJSON() async throws {
        let daemon = try DaemonHarness()
        try daemon.add(Self.hostileName, Photo.jpeg(Self.hostile))
        try await daemon.start()
        let result = try await daemon.photoctl(["groups", "--json"])
        #expect(result.status == 0)
        Self.expectNothingActs(result.stdout, ["groups", "--json"])
        #expect(result.stdout.contains("Beach\\u001b]0;owned\\u0007"), "\(result.stdout)")
        let groups = try #require(try result.json()["groups"] as? [[String: Any]])
        #expect(groups.first?["name"] as? String == Self.hostile)
        let list = try await daemon.photoctlJSON(["list"])
        #expect(((list["assets"] as? [[String: Any]])?.first?["path"] as? String)?.hasSuffix("/" + Self.hostileName) == true)
    }

    @Test func watchEscapesTheGroupsThatChanged() async throws {
        let daemon = try DaemonHarness()
        try await daemon.start()
        let watch = try StreamingProcess(Binaries.photoctl, ["watch"], environment: daemon.environment,
                                         directory: daemon.dir, name: "watch")
        await #expect(watch.wait { $0.lines.count >= 1 }, "\(watch.stderr)")
        try daemon.add(Self.hostileName, Photo.jpeg(Self.hostile))
        await #expect(watch.wait { $0.lines.count >= 2 }, "\(watch.lines)")
        await watch.kill()
        let text = watch.lines.joined(separator: "\n")
        Self.expectNothingActs(text, ["watch"])
        #expect(text.contains("groups changed: Beach\\u{1B}]0;owned\\u{07}"), "\(text)")
    }
}
