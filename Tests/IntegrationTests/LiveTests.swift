import Foundation
import PhotoTestSupport
import Testing

/// A running daemon over a library, with a subscriber recording every change.
struct Live {
    let daemon: DaemonHarness
    let recorder: ChangeRecorder

    static func start(files: [String: String?] = [:], settings: String = "",
                      inotifyQueueLimit: Int? = nil) async throws -> Live {
        let daemon = try DaemonHarness(settings: settings)
        for (path, description) in files { try daemon.add(path, Photo.jpeg(description)) }
        try await daemon.start(inotifyQueueLimit: inotifyQueueLimit)
        return Live(daemon: daemon, recorder: try await ChangeRecorder.start(socket: daemon.socket))
    }

    var library: String { daemon.library }

    /// Asset ids by library-relative path, from photod.
    func index() async throws -> [String: String] {
        try await daemon.photoctlJSON(["list", "--sort", "path"]).ids(relativeTo: library)
    }

    /// The image files on disk, by library-relative path (hidden names excluded, as photod does).
    func disk() throws -> Set<String> {
        var paths: Set<String> = []
        guard let walker = FileManager.default.enumerator(atPath: library) else { return paths }
        while let relative = walker.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            if name.hasPrefix(".") { continue }
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: library + "/" + relative, isDirectory: &isFolder), !isFolder.boolValue {
                paths.insert(relative)
            }
        }
        return paths
    }

    /// Waits for photod to settle and checks that the index lists exactly the files on disk.
    func expectIndexEqualsDisk(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await eventually(within: 10) { Set(try await self.index().keys) == (try disk()) }
        // Checked once more outside the wait, so a failure shows both sets.
        #expect(Set(try await self.index().keys) == (try disk()), sourceLocation: sourceLocation)
    }

    func write(_ path: String, _ description: String?) throws {
        try daemon.add(path, Photo.jpeg(description))
    }

    /// The name `barrier()` writes; its group is `Barrier`.
    static let barrierName = "zz-barrier.jpg"

    /// Writes one more photo (`barrierName`) and waits until subscribers have been told it was
    /// inserted: photod handles file events in order, so every change caused before the barrier
    /// has been announced by then. A probe of "nothing else followed", instead of a sleep.
    /// Returns the barrier photo's id.
    @discardableResult
    func barrier() async throws -> String {
        let before = recorder.inserted.count
        try write(Self.barrierName, "Barrier")
        try #require(try await recorder.wait { $0.inserted.count > before }, "the barrier photo was announced")
        let id = try #require(try await index()[Self.barrierName], "the barrier photo is in the index")
        try #require(try await recorder.wait { $0.inserted.contains(id) }, "the barrier's own insertion was announced")
        return id
    }

    func move(_ from: String, _ to: String) throws {
        let target = to.hasPrefix("/") ? to : library + "/" + to
        try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: from.hasPrefix("/") ? from : library + "/" + from, toPath: target)
    }
}

@Suite(.serialized) struct LiveTests {
    @Test func aWrittenFileIsInsertedOnce() async throws {
        let live = try await Live.start()
        try live.write("2024/new.jpg", "Beach")
        try await live.recorder.wait { !$0.inserted.isEmpty }
        try await live.expectIndexEqualsDisk()
        await #expect(live.recorder.inserted == [try #require(try live.index()["2024/new.jpg"])])
        #expect(live.recorder.received.last?.groupsChanged == ["Beach"])
        #expect(live.recorder.received.allSatisfy { $0.token > live.recorder.startToken })
    }

    @Test func renamesAndMovesKeepTheId() async throws {
        let live = try await Live.start(files: ["a.jpg": "A", "b.jpg": "B", "sub/keep.txt.jpg": "K"])
        let before = try await live.index()
        try live.move("a.jpg", "renamed.jpg")
        try live.move("b.jpg", "other/folder/b.jpg")
        try await live.recorder.wait { $0.moved.count >= 2 }
        try await live.expectIndexEqualsDisk()
        let after = try await live.index()
        #expect(after["renamed.jpg"] == before["a.jpg"])
        #expect(after["other/folder/b.jpg"] == before["b.jpg"])
        #expect(Set(live.recorder.moved.map(\.id)) == Set([before["a.jpg"], before["b.jpg"]].compactMap { $0 }))
        #expect(live.recorder.inserted.isEmpty)
        #expect(live.recorder.removed.isEmpty)
    }

    @Test func aRenamedFolderKeepsEveryIdBelowIt() async throws {
        let live = try await Live.start(files: ["trip/day1/a.jpg": "Trip", "trip/day2/b.jpg": "Trip", "trip/c.jpg": "Trip"])
        let before = try await live.index()
        try live.move("trip", "holiday-2024")
        try await live.recorder.wait { $0.moved.count >= 3 }
        try await live.expectIndexEqualsDisk()
        let after = try await live.index()
        #expect(after["holiday-2024/day1/a.jpg"] == before["trip/day1/a.jpg"])
        #expect(after["holiday-2024/day2/b.jpg"] == before["trip/day2/b.jpg"])
        #expect(after["holiday-2024/c.jpg"] == before["trip/c.jpg"])
        #expect(live.recorder.inserted.isEmpty && live.recorder.removed.isEmpty)
        // The renamed folder is still watched under its new name.
        try live.write("holiday-2024/day1/later.jpg", "Trip")
        try await live.recorder.wait { $0.inserted.count == 1 }
        try await live.expectIndexEqualsDisk()
    }

    @Test func aNewFolderFilledAtOnceIsFoundWhole() async throws {
        let live = try await Live.start()
        let folder = live.library + "/import/deep/er"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for n in 0..<40 { try live.write("import/deep/er/p\(n).jpg", "Import") }
        try await live.recorder.wait { Set($0.inserted).count >= 40 }
        try await live.expectIndexEqualsDisk()
        #expect(Set(live.recorder.inserted).count == 40)
        #expect(live.recorder.inserted.count == 40, "each photo is inserted once")
    }

    @Test func anAtomicReplaceAndAnInPlaceEditUpdateTheSameId() async throws {
        let live = try await Live.start(files: ["photo.jpg": "Before", "edit.jpg": "Old"])
        let before = try await live.index()
        try live.write(".photo.jpg.tmp", "After")
        #expect(rename(live.library + "/.photo.jpg.tmp", live.library + "/photo.jpg") == 0, "rename over the photo")
        try live.write("edit.jpg", "New")
        try await live.recorder.wait { Set($0.updated).count >= 2 }
        try await live.expectIndexEqualsDisk()
        await #expect(try live.index() == before)
        #expect(Set(live.recorder.updated) == Set(before.values))
        #expect(live.recorder.inserted.isEmpty && live.recorder.removed.isEmpty)
        await #expect(try live.daemon.photoctlJSON(["groups"]).groupCounts == ["After": 1, "New": 1])
    }

    @Test func deletesAndMovesOutAreRemovalsAndMovesInAreInsertions() async throws {
        let live = try await Live.start(files: ["gone.jpg": "G", "leaving.jpg": "L"])
        let before = try await live.index()
        let outside = live.daemon.dir.file("outside")
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try Data(Photo.jpeg("Arriving")).write(to: URL(fileURLWithPath: outside + "/arriving.jpg"))
        try FileManager.default.removeItem(atPath: live.library + "/gone.jpg")
        try live.move("leaving.jpg", outside + "/leaving.jpg")
        try live.move(outside + "/arriving.jpg", "arrived.jpg")
        try await live.recorder.wait { $0.removed.count >= 2 && $0.inserted.count >= 1 }
        try await live.expectIndexEqualsDisk()
        #expect(Set(live.recorder.removed) == Set(before.values))
        await #expect(live.recorder.inserted == [try #require(try live.index()["arrived.jpg"])])
    }

    @Test func aRootRemovedAndRecreatedComesBack() async throws {
        let live = try await Live.start(files: ["a.jpg": "A"], settings: "poll_interval = 1\n")
        try FileManager.default.removeItem(atPath: live.library)
        try await live.recorder.wait { $0.removed.count == 1 }
        let gone = try await live.daemon.photoctlJSON(["status"])
        #expect((gone["roots"] as? [[String: Any]])?.first?["state"] as? String == "missing")
        #expect(gone["state"] as? String == "degraded")
        try FileManager.default.createDirectory(atPath: live.library, withIntermediateDirectories: true)
        try live.write("back.jpg", "Back")
        try await live.recorder.wait { $0.inserted.count == 1 }
        try await live.expectIndexEqualsDisk()
        let back = try await live.daemon.photoctlJSON(["status"])
        #expect((back["roots"] as? [[String: Any]])?.first?["state"] as? String == "watching")
        // Watched again: a later file arrives without waiting for a poll.
        try live.write("later.jpg", "Later")
        try await live.recorder.wait(timeout: 0.9) { $0.inserted.count == 2 }
        #expect(live.recorder.inserted.count == 2)
    }

    @Test func foldersPastTheWatchBudgetArePolledAndStatusSaysWhy() async throws {
        let live = try await Live.start(files: ["a/1.jpg": "A", "b/2.jpg": "B", "c/3.jpg": "C", "d/4.jpg": "D"],
                                        settings: "poll_interval = 1\nmax_watches = 2\n")
        let status = try await live.daemon.photoctlJSON(["status"])
        #expect(status["watches"] as? Int == 2)
        #expect(status["state"] as? String == "degraded")
        #expect((status["problems"] as? [String])?.first?.contains("max_user_watches") == true)
        #expect((status["roots"] as? [[String: Any]])?.first?["state"] as? String == "polling")
        for folder in ["a", "b", "c", "d"] { try live.write("\(folder)/new.jpg", "New") }
        try await live.recorder.wait { $0.inserted.count >= 4 }
        try await live.expectIndexEqualsDisk()
        #expect(await live.daemon.logContains("watch limit is reached"))
        #expect(live.daemon.log.components(separatedBy: "watch limit is reached").count == 2, "said once")
    }

    @Test(.enabled(if: DaemonHarness.canLowerInotifyQueue,
                   "provoking an overflow needs root, to lower fs.inotify.max_queued_events for one instance"))
    func aQueueOverflowReconcilesAndIsCounted() async throws {
        // One queued event: a create and a close in a row already overflow.
        let live = try await Live.start(inotifyQueueLimit: 1)
        for n in 0..<300 { try live.write("burst/p\(n).jpg", "Burst") }
        try await live.recorder.wait { Set($0.inserted).count >= 300 }
        try await live.expectIndexEqualsDisk()
        #expect(Set(live.recorder.inserted).count == 300)
        let status = try await live.daemon.photoctlJSON(["status"])
        #expect((status["overflows"] as? Int ?? 0) >= 1)
        #expect(await live.daemon.logContains("overflowed"), "\(live.daemon.log)")
    }
}
