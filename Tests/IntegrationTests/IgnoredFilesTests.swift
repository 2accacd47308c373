import Foundation
import PhotoTestSupport
import Testing

/// `[library] ignore` (issue 30), through the real photod and photoctl: ignored files are never
/// indexed, ignored folders never walked or watched, their live events dropped; a restart with a
/// changed list removes what it now ignores; a pattern photod cannot take stops it at start.
@Suite(.serialized) struct IgnoredFilesTests {
    /// Library-relative paths of every photo photod lists, sorted.
    private func listed(_ live: Live) async throws -> [String] {
        try await live.index().keys.sorted()
    }

    @Test func exifToolBackupsAreIgnoredByDefaultAtStartAndLive() async throws {
        let live = try await Live.start(files: ["a.jpg": "A", "a.jpg_original": "A", "2021/b.JPG_original": "B"])
        await #expect(try listed(live) == ["a.jpg"])
        try live.write("c.jpg_original", "C")
        try live.write("2021/d.jpg", "D")
        let barrier = try await live.barrier()
        #expect(live.recorder.inserted.count == 2 && live.recorder.inserted.last == barrier, "\(live.recorder.inserted)")
        await #expect(try listed(live) == ["2021/d.jpg", "a.jpg", Live.barrierName])
    }

    @Test func ignoredFoldersAreNeverWalkedOrWatchedAndTheirEventsAreDropped() async throws {
        let settings = "[library]\nignore = [\"raw/\", \"/2019/*.jpg\", \"*.tmp.jpg\"]\n"
        let live = try await Live.start(files: ["raw/x.jpg": "X", "sub/raw/y.jpg": "Y", "sub/keep.jpg": "K",
                                               "2019/a.jpg": "A", "2019/keep/b.jpg": "B", "c.tmp.jpg": "C", "c.jpg": "C"],
                                        settings: settings)
        await #expect(try listed(live) == ["2019/keep/b.jpg", "c.jpg", "sub/keep.jpg"])
        // The root, sub, 2019 and 2019/keep: neither raw folder is watched.
        await #expect(try live.daemon.photoctlJSON(["status"])["watches"] as? Int == 4)

        try FileManager.default.createDirectory(atPath: live.library + "/new/raw", withIntermediateDirectories: true)
        try live.write("new/raw/z.jpg", "Z")
        try live.write("2019/late.jpg", "L")
        try live.write("new/fine.jpg", "F")
        try FileManager.default.moveItem(atPath: live.library + "/sub/keep.jpg", toPath: live.library + "/sub/raw/keep.jpg")
        try await live.barrier()
        await #expect(try listed(live) == ["2019/keep/b.jpg", "c.jpg", "new/fine.jpg", Live.barrierName])
        await #expect(try live.daemon.photoctlJSON(["status"])["watches"] as? Int == 5, "new, not new/raw")

        // A rescan finds nothing more: what is ignored is not there for a reconcile either.
        _ = try await live.daemon.photoctlJSON(["rescan"])
        await #expect(try listed(live) == ["2019/keep/b.jpg", "c.jpg", "new/fine.jpg", Live.barrierName])
    }

    @Test func aRestartWithAChangedListRemovesWhatItNowIgnoresAndAnEmptyListIgnoresNothing() async throws {
        let daemon = try DaemonHarness(settings: "[library]\nignore = []\n")
        for path in ["a.jpg", "a.jpg_original", "scans/s.jpg"] { try daemon.add(path, Photo.jpeg("A")) }
        try await daemon.start()
        await #expect(try daemon.photoctlJSON(["status"])["assets"] as? Int == 3, "nothing ignored")
        await #expect(daemon.stop() == 0)

        try daemon.writeConfig(settings: "[library]\nignore = [\"*_original\", \"scans\"]\n", trusted: DaemonHarness.defaultTrusted)
        try await daemon.start()
        let paths = try await daemon.photoctlJSON(["list"]).assets.compactMap { $0["path"] as? String }
        #expect(paths == [daemon.library + "/a.jpg"])
        await #expect(try daemon.photoctlJSON(["status"])["assets"] as? Int == 1)
    }

    @Test func aPatternPhotodCannotTakeStopsItNamingThePattern() async throws {
        let dir = try TemporaryDirectory()
        let (config, result) = try await ConfigRefusal.run("[library]\nignore = [\"*_original\", \"raw[\"]\n", in: dir)
        #expect(result.status == 78)
        #expect(result.stderr == "photod: bad config: \(config): library.ignore: pattern \"raw[\" has a \"[\" that is "
                + "not closed\n", "\(result.stderr)")
        let list = (0...256).map { "\"p\($0)\"" }.joined(separator: ", ")
        let (_, tooMany) = try await ConfigRefusal.run("[library]\nignore = [\(list)]\n", in: dir, named: "many.toml")
        #expect(tooMany.status == 78 && tooMany.stderr.contains("library.ignore: 257 patterns are more than the 256"),
                "\(tooMany.stderr)")
    }
}
