import Foundation
import PhotoTestSupport
import Testing

/// File names that are not UTF-8 (Latin-1 `é` is the byte 0xE9), carried as bytes from the
/// shell's argv through photod and back into the folder `export` writes.
@Suite(.serialized) struct ByteNameTests {
    /// `latin1-\xE9t\xE9.jpg` and `latin1-\xE8t\xE8.jpg`: the same text once repaired (U+FFFD).
    private static let names: [[UInt8]] = [0xE9, 0xE8].map { Array("latin1-".utf8) + [$0, UInt8(ascii: "t"), $0] + Array(".jpg".utf8) }

    /// The same name as a `printf` format (octal escapes), for a shell to make the bytes.
    private static func printfFormat(_ name: [UInt8]) -> String {
        name.map { $0 < 0x80 ? String(UnicodeScalar($0)) : "\\" + String($0, radix: 8) }.joined()
    }

    /// The photo as photod indexed it, under its exact name.
    private func addPhoto(_ daemon: DaemonHarness, named name: [UInt8], _ index: Int) throws {
        let plain = try daemon.add("plain\(index).jpg", ThumbnailedPhoto.jpeg("photo \(index)"))
        let exact = Array(daemon.library.utf8) + [UInt8(ascii: "/")] + name
        #expect(rename(plain, cString(exact)) == 0)
    }

    private func cString(_ bytes: [UInt8]) -> [CChar] { bytes.map { CChar(bitPattern: $0) } + [0] }

    /// Runs photoctl through `sh`, whose `printf` puts the name's exact bytes in argv ($1 is the
    /// folder, the name's bytes follow it).
    private func photoctl(_ daemon: DaemonHarness, _ script: String, _ arguments: [String]) async throws -> ProcessResult {
        try await ProcessRunner.run("/bin/sh", ["-c", script, Binaries.photoctl] + arguments, environment: daemon.environment)
    }

    /// The files in `folder`: each name as the kernel stores it, and a digest of its bytes.
    private func entries(_ folder: String) async throws -> [Entry] {
        let script = """
            import hashlib, os, sys
            folder = sys.argv[1].encode()
            for n in sorted(os.listdir(folder)):
                print(n.hex(), hashlib.sha256(open(os.path.join(folder, n), 'rb').read()).hexdigest())
            """
        let listing = try await ProcessRunner.run("/usr/bin/env", ["python3", "-c", script, folder])
        return listing.stdout.split(separator: "\n").map { line in
            let fields = line.split(separator: " ")
            let hex = Array(fields[0].utf8)
            let name = stride(from: 0, to: hex.count - 1, by: 2).compactMap { UInt8(String(decoding: hex[$0...($0 + 1)], as: UTF8.self), radix: 16) }
            return Entry(name: name, digest: fields.count > 1 ? String(fields[1]) : "")
        }
    }

    /// A file's name and content digest.
    private struct Entry: Equatable { var name: [UInt8]; var digest: String }

    @Test func aLatin1NameIsFoundShownEscapedAndExportedUnderItsExactBytes() async throws {
        let daemon = try DaemonHarness()
        for (index, name) in Self.names.enumerated() { try addPhoto(daemon, named: name, index) }
        try await daemon.start()

        // `show PATH` finds each photo by its bytes, and they are two photos.
        var ids: [String] = []
        for name in Self.names {
            let shown = try await photoctl(daemon, "exec \"$0\" show \"$1/$(printf '\(Self.printfFormat(name))')\" --json", [daemon.library])
            #expect(shown.status == 0, "\(shown.stderr)")
            let assets = try #require(try shown.json()["assets"] as? [[String: Any]])
            ids += assets.compactMap { $0["id"] as? String }
        }
        #expect(ids.count == 2 && Set(ids).count == 2, "\(ids)")
        let human = try await photoctl(daemon, "exec \"$0\" show \"$1/$(printf '\(Self.printfFormat(Self.names[0]))')\"", [daemon.library])
        #expect(human.status == 0, "\(human.stderr)")
        #expect(human.stdout.contains("latin1-\\x{E9}t\\x{E9}.jpg"), "\(human.stdout)")

        // A Latin-1 name that is not indexed is reported escaped.
        let missing = try await photoctl(daemon, "exec \"$0\" show \"$1/$(printf 'gone-\\351.jpg')\"", [daemon.library])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("not in the library: " + daemon.library + "/gone-\\x{E9}.jpg"), "\(missing.stderr)")

        // export writes both under their exact bytes (no collision), and prints them escaped.
        let folder = daemon.dir.file("out")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let exported = try await daemon.photoctl(["export"] + ids + [folder])
        #expect(exported.status == 0, "\(exported.stderr)")
        await #expect(try entries(folder).map(\.name) == Self.names.sorted { $0.lexicographicallyPrecedes($1) })
        for name in Self.names {
            #expect(exported.stdout.contains(folder + "/" + "latin1-\\x{\(String(name[7], radix: 16, uppercase: true))}t"),
                    "\(exported.stdout)")
        }
        #expect(!exported.stdout.contains("\u{FFFD}"), "no byte is printed raw or replaced")
        await #expect(try entries(folder) == entries(daemon.library), "the same names and bytes")
    }

    @Test func aNameOfTwoHundredFiftyFiveBytesIsExported() async throws {
        let daemon = try DaemonHarness()
        let name = String(repeating: "n", count: 251) + ".jpg"
        #expect(name.utf8.count == 255)
        let original = try daemon.add(name, ThumbnailedPhoto.jpeg("long"))
        try await daemon.start()
        let id = try #require(try await daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)[name])
        let folder = daemon.dir.file("out")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let result = try await daemon.photoctl(["export", id, folder])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [name], "the copy, and no temporary file")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)) == Data(contentsOf: URL(fileURLWithPath: original)))
    }
}
