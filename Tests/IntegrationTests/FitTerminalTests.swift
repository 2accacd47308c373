import Foundation
import PhotoTestSupport
import Testing

/// Everything photoctl prints for people fits the terminal (80 columns on a pseudo-terminal
/// that does not say), and a pipe gets no padding: paths lose their folders before their
/// names, status wraps, long lists of groups are counted, not listed.
@Suite(.serialized) struct FitTerminalTests {
    /// The lines a terminal showed, without the "status=N" line `onTerminal` adds and without
    /// colours (bold titles, which take no column).
    static func screenLines(_ result: ProcessResult) -> [String] {
        result.stdout.replacingOccurrences(of: "\u{1B}[1m", with: "").replacingOccurrences(of: "\u{1B}[2m", with: "")
            .replacingOccurrences(of: "\u{1B}[0m", with: "")
            .components(separatedBy: "\r\n").filter { !$0.hasPrefix("status=") }
    }

    /// Expects every line to take at most `width` terminal columns.
    static func expectFits(_ lines: [String], width: Int = 80, sourceLocation: SourceLocation = #_sourceLocation) {
        for line in lines {
            #expect(line.count <= width, "\(line.count) columns: \(line)", sourceLocation: sourceLocation)
        }
    }

    @Test func listAndFindKeepTheFileNameAndTheFoldersNearestIt() async throws {
        let daemon = try DaemonHarness()
        try daemon.add("2019/Trip/IMG_0001.jpg", Photo.jpeg(LongCaption.xml))
        try daemon.add("2019/Trip/beach.jpg", Photo.jpeg("Beach"))
        try await daemon.start()
        for arguments in [["list"], ["find", "beach"], ["find", "sunset"]] {
            let shown = try await TerminalOutputTests.onTerminal(daemon, arguments)
            #expect(shown.stdout.hasSuffix("status=0\r\n"), "\(shown.stdout)")
            let lines = Self.screenLines(shown)
            Self.expectFits(lines)
            // The library sits in a long temporary folder: the path gives way from its start,
            // whole folders at a time, and keeps the name and the folders nearest it.
            let rows = lines.filter { $0.contains(".jpg") }
            #expect(!rows.isEmpty, "\(arguments): \(shown.stdout)")
            for row in rows {
                let path = row.split(separator: " ").last.map(String.init) ?? ""
                #expect(path.hasPrefix("…/") && !path.dropFirst().contains("…"), "\(arguments): \(row)")
                #expect(path.hasSuffix("/2019/Trip/IMG_0001.jpg") || path.hasSuffix("/2019/Trip/beach.jpg"),
                        "\(arguments): \(row)")
                #expect(path.count >= 24, "the path is given the room the group gave up: \(row)")
            }
        }
    }

    @Test func everyLineOfStatusFitsTheTerminal() async throws {
        let daemon = try DaemonHarness()
        try daemon.add("a.jpg", Photo.jpeg("Beach"))
        try await daemon.start()
        let shown = try await TerminalOutputTests.onTerminal(daemon, ["status"])
        #expect(shown.stdout.hasSuffix("status=0\r\n"), "\(shown.stdout)")
        let lines = Self.screenLines(shown)
        Self.expectFits(lines)
        // The images line is wrapped at a word, its rest indented; nothing is lost.
        let text = lines.joined(separator: " ").split(separator: " ").joined(separator: " ")
        #expect(text.contains("Images: ") && text.contains("; cache "), "\(shown.stdout)")
        // Piped, a line stays whole.
        let piped = try await daemon.photoctl(["status"])
        #expect(piped.stdout.split(separator: "\n").contains { $0.hasPrefix("Images: ") && $0.contains("; cache ") })
    }

    @Test func aPipeGetsNoPaddingAndGroupsHaveTSV() async throws {
        let daemon = try DaemonHarness()
        try daemon.add("caption.jpg", Photo.jpeg(LongCaption.xml))
        try daemon.add("beach.jpg", Photo.jpeg("Beach at dawn\\"))
        try await daemon.start()
        let piped = try await daemon.photoctl(["groups"])
        #expect(piped.status == 0)
        let rows = piped.stdout.split(separator: "\n")
        #expect(rows.count == 3, "\(piped.stdout)")
        // Only the caption's own row is as long as the caption; no other row is padded to it.
        #expect(rows.filter { $0.count > 200 }.count == 1, "\(rows.map(\.count))")
        #expect(rows.first == "GROUP  PHOTOS  LATEST")

        let tsv = try await daemon.photoctl(["groups", "--format", "tsv"])
        #expect(tsv.status == 0, "\(tsv.stderr)")
        let lines = tsv.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "name\tcount\tfallback\tlatest\tlatestSource")
        #expect(lines.contains { $0.hasPrefix("Beach at dawn\\\\\t1\tfalse\t") && $0.hasSuffix("\ttaken") },
                "escaped as list escapes: \(lines.filter { !$0.contains("xml") })")
        #expect(lines.dropFirst().filter { !$0.isEmpty }.allSatisfy { $0.split(separator: "\t").count == 5 })
        let bare = try await daemon.photoctl(["groups", "--format", "tsv", "--no-legend"])
        #expect(!bare.stdout.hasPrefix("name\t"))
    }

    @Test func watchNamesTheFilesItsLinesFitAndTheReplaySaysWhereItStarts() async throws {
        let daemon = try DaemonHarness()
        try await daemon.start()
        let watch = try StreamingProcess(Binaries.photoctl, ["watch"], environment: daemon.environment,
                                         directory: daemon.dir, name: "watch")
        #expect(await watch.wait(timeout: 60) { !$0.lines.isEmpty }, "\(watch.stderr)")
        try daemon.add("2019/Trip/IMG_0001.jpg", Photo.jpeg("Trip"))
        #expect(await watch.wait(timeout: 60) { $0.lines.count >= 2 }, "\(watch.lines) \(watch.stderr)")
        let added = try #require(watch.lines.last)
        #expect(added.hasSuffix("] added 2019/Trip/IMG_0001.jpg; groups changed: Trip"), "\(added)")

        // Replayed from token 0: the header names where the replay starts and ends.
        let replay = try await TerminalOutputTests.onTerminal(daemon, ["watch", "--since", "0"], before: ["timeout", "-s", "INT", "3"])
        let lines = Self.screenLines(replay)
        #expect(lines.first?.hasPrefix("Replaying changes after token 0 (1 to ") == true, "\(replay.stdout)")
        #expect(lines.contains { $0.hasSuffix("added 2019/Trip/IMG_0001.jpg; groups changed: Trip") }, "\(replay.stdout)")
        Self.expectFits(lines)

        // A removed photo is gone: it is named by its id.
        let id = try #require(try await daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)["2019/Trip/IMG_0001.jpg"])
        try FileManager.default.removeItem(atPath: daemon.library + "/2019/Trip/IMG_0001.jpg")
        #expect(await watch.wait(timeout: 60) { $0.lines.count >= 3 }, "\(watch.lines) \(watch.stderr)")
        #expect(watch.lines.last?.hasSuffix("] removed \(id); groups emptied: Trip") == true, "\(watch.lines)")
        await watch.kill()
    }

    @Test func watchEndsWithPhotodSaysHowToResume() async throws {
        let daemon = try DaemonHarness()
        try await daemon.start()
        let watch = try StreamingProcess(Binaries.photoctl, ["watch"], environment: daemon.environment,
                                         directory: daemon.dir, name: "watch")
        let permissions = try StreamingProcess(Binaries.photoctl, ["permissions", "watch"], environment: daemon.environment,
                                               directory: daemon.dir, name: "permissions")
        #expect(await watch.wait(timeout: 60) { !$0.lines.isEmpty }, "\(watch.stderr)")
        #expect(await permissions.wait(timeout: 60) { !$0.lines.isEmpty }, "\(permissions.stderr)")
        try daemon.add("new.jpg", Photo.jpeg("New"))
        #expect(await watch.wait(timeout: 60) { $0.lines.count >= 2 }, "\(watch.lines) \(watch.stderr)")
        let token = try #require(watch.lines.last?.dropFirst().split(separator: "]").first.map(String.init))

        await daemon.stop()
        #expect(await watch.exitStatus() == 3, "\(watch.stderr)")
        #expect(watch.stderr == "photoctl: photod stopped; resume with photoctl watch --since \(token)\n")
        #expect(await permissions.exitStatus() == 3, "\(permissions.stderr)")
        #expect(permissions.stderr == "photoctl: photod stopped\n")

        // A crash ends the stream the same way, in the same words.
        try await daemon.start()
        let again = try StreamingProcess(Binaries.photoctl, ["watch", "--json"], environment: daemon.environment,
                                         directory: daemon.dir, name: "again")
        #expect(await again.wait(timeout: 60) { !$0.lines.isEmpty }, "\(again.stderr)")
        let current = try #require(again.objects.first?["token"] as? Int)
        await daemon.kill()
        #expect(await again.exitStatus() == 3, "\(again.stderr)")
        #expect(again.stderr == "photoctl: photod stopped; resume with photoctl watch --since \(current) --json\n")
    }

    @Test func permissionsWatchCountsTheGroupsItDoesNotName() async throws {
        let daemon = try DaemonHarness(trusted: [])
        let names = (1...45).map { String(format: "Group %02d ", $0) + String(repeating: "x", count: 150) }
        for (index, name) in names.enumerated() { try daemon.add("g\(index).jpg", Photo.jpeg(name)) }
        try await daemon.start()
        let (app, request) = try await PermissionsPromptTests.waitingApp(daemon)
        defer { withExtendedLifetime(request) {} }
        let watch = try StreamingProcess(Binaries.photoctl, ["permissions", "watch"], environment: daemon.environment,
                                         directory: daemon.dir, name: "permissions")
        #expect(await watch.wait(timeout: 60) { !$0.lines.isEmpty }, "\(watch.stderr)")
        let allowed = try await daemon.photoctl(["permissions", "allow", try await app.appID] + names.flatMap { ["--group", $0] })
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(await watch.wait(timeout: 30) { $0.lines.count >= 2 }, "\(watch.lines)")
        let line = try #require(watch.lines.last)
        // Piped: five groups named, each cut, and the rest counted; far from 45 × 160 characters.
        #expect(line.contains(", and 40 more"), "\(line)")
        #expect(line.count < 600, "\(line.count)")
        await watch.kill()
    }

    @Test func theGroupMenuFitsIsPagedAndNarrowsToTypedText() async throws {
        let daemon = try DaemonHarness(trusted: [])
        for index in 1...30 { try daemon.add("b\(index).jpg", Photo.jpeg(String(format: "Beach %02d", index))) }
        try daemon.add("hike.jpg", Photo.jpeg("Hike"))
        try daemon.add("caption.jpg", Photo.jpeg(LongCaption.xml))
        try await daemon.start()
        // Kept until the end: the app's request lasts as long as its process.
        let waiting = try await PermissionsPromptTests.waitingApp(daemon)
        defer { withExtendedLifetime(waiting) {} }
        let prompt = try await PermissionsPromptTests.prompt(daemon, [
            "[a]llow / [l]imited / [d]eny / [s]kip", "l",
            "Groups to share", ">",
            "Groups to share", "hik",
            "Groups to share", "Hike",
        ])
        #expect(prompt.status == 0, "\(prompt.stdout)\n\(prompt.stderr)")
        let lines = prompt.stdout.components(separatedBy: "\n")
        Self.expectFits(lines)
        // A 24-line terminal: 19 groups a page, the caption's entry cut to the width.
        #expect(prompt.stdout.contains("Groups: 1–19 of 32."), "\(prompt.stdout)")
        #expect(prompt.stdout.contains("Groups: 20–32 of 32."), "\(prompt.stdout)")
        #expect(prompt.stdout.contains("Groups holding \"hik\": 1–1 of 1."), "\(prompt.stdout)")
        #expect(lines.contains { $0.hasPrefix("  ") && $0.contains("<?xml") && $0.contains("…") }, "\(prompt.stdout)")
        #expect(prompt.stdout.contains("limited: groups Hike"), "\(prompt.stdout)")
    }

    @Test func ctrlDWhileWaitingEndsThePromptAndHintsWrap() async throws {
        let daemon = try DaemonHarness(trusted: [])
        try await daemon.start()
        let prompt = try await PermissionsPromptTests.prompt(daemon, ["Ctrl-D stops.", "\u{04}"],
                                                             ["PROMPT_ARGS": "permissions\nprompt"])
        #expect(prompt.status == 0, "\(prompt.stdout)\n\(prompt.stderr)")
        #expect(prompt.stdout.contains("Stopped waiting for requests."), "\(prompt.stdout)")

        // A hint on standard error, when that is a terminal, wraps at a word within its width.
        let other = try DaemonHarness()
        try other.add("a.jpg", Photo.jpeg("Beach"))
        try other.add("b.jpg", Photo.jpeg("beach"))
        try await other.start()
        let groups = try await TerminalOutputTests.onTerminal(other, ["groups"])
        let lines = Self.screenLines(groups)
        Self.expectFits(lines)
        #expect(lines.contains { $0.hasPrefix("To make each of them one group, set case_insensitive = true") }, "\(groups.stdout)")
        #expect(lines.contains { $0.hasSuffix("and restart photod.") }, "\(groups.stdout)")
    }
}
