import Foundation
import PhotoTestSupport
import Testing

/// `photoctl find`, `list --since/--until/--reverse` and `show PATH` through the real binaries.
@Suite(.serialized) struct FindCommandTests {
    /// Wide enough that no row is ever shortened: the rows are checked whole.
    private static let columns = ["COLUMNS": "1000"]

    private static func library() async throws -> DaemonHarness {
        let daemon = try DaemonHarness()
        try daemon.add("2019/creme.jpg", Photo.jpeg("Café Crème", taken: "2019:05:01 08:00:00"))
        try daemon.add("2020/lait.jpg", Photo.jpeg("cafe au lait", taken: "2020:02:01 08:00:00", make: "FUJIFILM", model: "X-T3"))
        try daemon.add("2021/beach.jpg", Photo.jpeg("Beach", taken: "2021:06:05 23:30:00"))
        try daemon.add("2018/none.jpg", Photo.jpeg(nil, taken: "2018:01:01 08:00:00"))
        try await daemon.start()
        return daemon
    }

    /// Runs photoctl in `directory`, as a user would from a shell there.
    private static func photoctl(_ daemon: DaemonHarness, in directory: String, _ arguments: [String]) async throws -> ProcessResult {
        var environment = daemon.environment
        environment.merge(columns) { $1 }
        return try await ProcessRunner.run("/usr/bin/env", ["-C", directory, Binaries.photoctl] + arguments,
                                     environment: environment)
    }

    private static func run(_ daemon: DaemonHarness, _ arguments: [String]) async throws -> ProcessResult {
        try await photoctl(daemon, in: daemon.dir.path, arguments)
    }

    /// The data rows of a table (the header dropped), each split into its columns.
    private static func rows(_ output: String) -> [[String]] {
        output.split(separator: "\n").dropFirst().map { $0.split(separator: "  ", omittingEmptySubsequences: true)
            .map { $0.trimmingCharacters(in: .whitespaces) } }
    }

    @Test func findPrintsListsRowsNewestFirstIgnoringCaseAndAccents() async throws {
        let daemon = try await Self.library()
        let library = daemon.library
        let found = try await Self.run(daemon, ["find", "CAFE"])
        #expect(found.status == 0, "\(found.stderr)")
        #expect(found.stdout.hasPrefix("ID "), "\(found.stdout)")
        let rows = Self.rows(found.stdout)
        #expect(rows.map { $0.last } == [library + "/2020/lait.jpg", library + "/2019/creme.jpg"])
        #expect(rows.map { $0[1] } == ["cafe au lait", "Café Crème"])
        #expect(rows.map { $0[2] } == ["2020-02-01 08:00:00", "2019-05-01 08:00:00"])
        // Every photo has "jpg" in its name: find's table is list's, newest first, byte for byte.
        let everything = try await Self.run(daemon, ["find", "jpg"])
        let listed = try await Self.run(daemon, ["list", "--reverse"])
        #expect(everything.stdout == listed.stdout)
        await #expect(Self.rows(try Self.run(daemon, ["find", "crème", "canon"]).stdout).map { $0.last } == [library + "/2019/creme.jpg"])
        await #expect(Self.rows(try Self.run(daemon, ["find", "x-t3"]).stdout).map { $0[1] } == ["cafe au lait"])
        await #expect(Self.rows(try Self.run(daemon, ["find", "cafe", "--limit", "1"]).stdout).count == 1)
        await #expect(Self.rows(try Self.run(daemon, ["find", "cafe", "--group", "Café Crème"]).stdout).map { $0[1] } == ["Café Crème"])
        let nothing = try await Self.run(daemon, ["find", #"NEAR("x"*"#])
        #expect(nothing.status == 1, "no match exits 1, as grep does")
        // No lone header: people are told, scripts (--no-legend, tsv) get nothing or the header.
        #expect(nothing.stdout == #"No photos match "NEAR("x"*"."# + "\n")
        await #expect(try Self.run(daemon, ["find", "zzz", "--no-legend"]).stdout.isEmpty)
        await #expect(try Self.run(daemon, ["find", "zzz", "--format", "tsv", "--fields", "id"]).stdout == "id\n")
        // list's --fields and --format, and its label of the fallback group, are find's too.
        let tsv = try await Self.run(daemon, ["find", "lait", "--format", "tsv", "--fields", "path,group"])
        #expect(tsv.stdout == "path\tgroup\n\(library)/2020/lait.jpg\tcafe au lait\n")
        let fallback = try await Self.run(daemon, ["find", "jpg", "--group", "Other (no description)"])
        #expect(fallback.status == 0, "\(fallback.stderr)")
        #expect(Self.rows(fallback.stdout).map { $0.last } == [library + "/2018/none.jpg"])
        let json = try await daemon.photoctlJSON(["find", "lait"])
        #expect(json.assets.compactMap { $0["path"] as? String } == [library + "/2020/lait.jpg"])
        for usage in [["find"], ["find", "  "], ["find", "x", "--limit", "0"]] {
            let result = try await Self.run(daemon, usage)
            #expect(result.status == 2, "\(usage): \(result.stderr)")
        }
    }

    @Test func listKeepsTheDaysAskedForInEitherOrder() async throws {
        let daemon = try await Self.library()
        let library = daemon.library
        let range = try await Self.run(daemon, ["list", "--since", "2020-01-01", "--until", "2021-06-05"])
        #expect(range.status == 0, "\(range.stderr)")
        #expect(Self.rows(range.stdout).map { $0.last } == [library + "/2020/lait.jpg", library + "/2021/beach.jpg"])
        let reversed = try await Self.run(daemon, ["list", "--since", "2020-01-01", "--reverse", "--limit", "1"])
        #expect(Self.rows(reversed.stdout).map { $0.last } == [library + "/2021/beach.jpg"])
        let before = try await Self.run(daemon, ["list", "--until", "2019-05-01T07:59:59"])
        #expect(Self.rows(before.stdout).map { $0.last } == [library + "/2018/none.jpg"], "one second before")
        let minute = try await Self.run(daemon, ["list", "--since", "2019-05-01T08:00", "--until", "2019-05-01T08:00"])
        #expect(Self.rows(minute.stdout).map { $0.last } == [library + "/2019/creme.jpg"])
        for bad in [["list", "--since", "2021-13-01"], ["list", "--until", "someday"]] {
            let result = try await Self.run(daemon, bad)
            #expect(result.status == 2, "\(bad)")
            #expect(result.stderr.contains("\"\(bad[2])\" is not a date"), "\(result.stderr)")
            #expect(result.stderr.contains("2021-06-05T14:30") && result.stderr.contains("2 weeks ago"),
                    "the message shows the forms: \(result.stderr)")
        }
    }

    @Test func showFindsAPhotoByItsFileRelativeThroughASymlinkedFolderOrNot() async throws {
        let daemon = try await Self.library()
        let library = daemon.library
        let id = try #require(try await daemon.photoctlJSON(["find", "beach"]).assets.first?["id"] as? String)
        let link = daemon.dir.file("shortcut")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: library + "/2021")
        for (directory, argument) in [(library + "/2021", "beach.jpg"), (library + "/2021", "./beach.jpg"),
                                      (library + "/2019", "../2021//beach.jpg"), (daemon.dir.path, "library/2021/beach.jpg"),
                                      (daemon.dir.path, "shortcut/beach.jpg"), (link, "beach.jpg"),
                                      ("/", library + "/./2021/beach.jpg")] {
            let shown = try await Self.photoctl(daemon, in: directory, ["show", argument])
            #expect(shown.status == 0, "\(directory) \(argument): \(shown.stderr)")
            #expect(shown.stdout.contains(id), "\(directory) \(argument): \(shown.stdout)")
            #expect(shown.stdout.contains(library + "/2021/beach.jpg"))
        }
        // An id and a path together; a path that is not in the library is named, with status 1.
        let missing = try await Self.photoctl(daemon, in: library, ["show", id, "2021/nothing.jpg", "/nonexistent/x.jpg"])
        #expect(missing.status == 1)
        #expect(missing.stdout.contains(id))
        #expect(missing.stderr.contains("not in the library: \(library)/2021/nothing.jpg /nonexistent/x.jpg"),
                "\(missing.stderr)")
        // A name without a slash that is no file here is an id.
        let unknown = try await Self.photoctl(daemon, in: library, ["show", "beach.jpg"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("not in the library: beach.jpg"), "\(unknown.stderr)")
    }
}
