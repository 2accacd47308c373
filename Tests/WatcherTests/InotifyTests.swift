import FileSystem
import Foundation
import Testing
@testable import Watcher

@Suite("Inotify on a real folder")
struct InotifyTests {
    @Test func fileAndFolderEventsArriveAndDecode() async throws {
        let tree = try TempTree()
        defer { tree.remove() }
        let inotify = try Inotify()
        defer { inotify.close() }
        let set = WatchSet(inotify: inotify, budget: 100)
        #expect(set.watchTree(tree.pathBytes()).isEmpty)
        var collector = ActionCollector(inotify: inotify, set: set)
        defer { collector.finish() }

        try tree.write("a.jpg", "first")
        // The write is announced before the rename: a rename within the write's settling time
        // carries the write to the new name instead (SettlingFiles), which a loaded machine
        // showed (CI, 2026-11-29) and which is right, but not what this test is about.
        let written = await collector.collect(inOrder: [.fileLinked(tree.pathBytes("a.jpg")),
                                                        .fileWritten(tree.pathBytes("a.jpg"))])
        #expect(written, "actions: \(collector.actions)")
        #expect(rename(tree.path("a.jpg"), tree.path("b.jpg")) == 0)
        #expect(mkdir(tree.path("album"), 0o755) == 0)
        #expect(rmdir(tree.path("album")) == 0)
        let seen = await collector.collect(inOrder: [
            .fileLinked(tree.pathBytes("a.jpg")),
            .fileWritten(tree.pathBytes("a.jpg")),
            .fileMoved(from: tree.pathBytes("a.jpg"), to: tree.pathBytes("b.jpg")),
            .directoryCreated(tree.pathBytes("album")),
            .directoryRemoved(tree.pathBytes("album")),
        ])
        #expect(seen, "actions: \(collector.actions)")
    }

    @Test func atomicReplaceAndHardLinkDecode() async throws {
        let tree = try TempTree()
        defer { tree.remove() }
        try tree.write("photo.jpg", "old")
        let inotify = try Inotify()
        defer { inotify.close() }
        let set = WatchSet(inotify: inotify, budget: 100)
        #expect(set.watchTree(tree.pathBytes()).isEmpty)
        var collector = ActionCollector(inotify: inotify, set: set)
        defer { collector.finish() }

        try tree.write(".photo.jpg.tmp", "new")
        #expect(rename(tree.path(".photo.jpg.tmp"), tree.path("photo.jpg")) == 0)
        #expect(link(tree.path("photo.jpg"), tree.path("copy.jpg")) == 0)
        let seen = await collector.collect(inOrder: [.fileArrived(tree.pathBytes("photo.jpg")), .fileLinked(tree.pathBytes("copy.jpg"))])
        #expect(seen, "actions: \(collector.actions)")
        #expect(collector.actions == [.fileArrived(tree.pathBytes("photo.jpg")), .fileLinked(tree.pathBytes("copy.jpg"))])
    }

    @Test func eventsInARenamedSubfolderReportTheNewPath() async throws {
        let tree = try TempTree()
        defer { tree.remove() }
        try tree.makeFolder("old/deep")
        let inotify = try Inotify()
        defer { inotify.close() }
        let set = WatchSet(inotify: inotify, budget: 100)
        #expect(set.watchTree(tree.pathBytes()).isEmpty)
        var collector = ActionCollector(inotify: inotify, set: set)
        defer { collector.finish() }

        #expect(rename(tree.path("old"), tree.path("new")) == 0)
        #expect(await collector.collect(inOrder: [.directoryMoved(from: tree.pathBytes("old"), to: tree.pathBytes("new"))]))
        try tree.write("new/deep/x.jpg")
        let seen = await collector.collect(inOrder: [.fileWritten(tree.pathBytes("new/deep/x.jpg"))])
        #expect(seen, "actions: \(collector.actions)")
        #expect(set.watchCount == 3)
    }

    @Test func aFolderMovedOutIsRemovedAndItsWatchReleased() async throws {
        let tree = try TempTree()
        defer { tree.remove() }
        let outside = try TempTree()
        defer { outside.remove() }
        try tree.makeFolder("album")
        let inotify = try Inotify()
        defer { inotify.close() }
        let set = WatchSet(inotify: inotify, budget: 100)
        #expect(set.watchTree(tree.pathBytes()).isEmpty)
        let album = try #require(set.watch(at: tree.pathBytes("album")))
        var collector = ActionCollector(inotify: inotify, set: set)
        defer { collector.finish() }

        #expect(rename(tree.path("album"), outside.path("album")) == 0)
        let moved = await collector.collectEvents { events in events.contains { $0.mask & WatchMask.movedFrom != 0 } }
        #expect(moved)
        #expect(collector.actions.isEmpty)  // held for its MOVED_TO
        let deadline = try #require(set.nextDeadline)
        try await Task.sleep(until: deadline)
        #expect(set.expire(now: .now) == [.directoryRemoved(tree.pathBytes("album"))])
        #expect(set.watchCount == 1)
        // The watch on the moved-out folder is removed from the kernel: it reports IN_IGNORED.
        let released = await collector.collectEvents { events in
            events.contains { $0.wd == album && $0.mask & WatchMask.ignored != 0 }
        }
        #expect(released, "events: \(collector.events)")
    }

    @Test func batchesTheStreamCannotHoldBecomeAnOverflow() async throws {
        let tree = try TempTree()
        defer { tree.remove() }
        let inotify = try Inotify(bufferedBatches: 1)
        defer { inotify.close() }
        let set = WatchSet(inotify: inotify, budget: 10)
        #expect(set.watchTree(tree.pathBytes()).isEmpty)
        var collector = ActionCollector(inotify: inotify, set: set)
        defer { collector.finish() }
        // Nobody reads while three batches arrive: the first is kept, the others are dropped.
        // Each write's events are read before the next write (a busy machine could otherwise
        // leave the reader thread asleep until all three are queued, one batch, no overflow).
        // d.jpg is the sentinel: the reader reads it only after handing c.jpg's batch over, so
        // c.jpg's is dropped before collection starts; d.jpg's own may still be on its way.
        for name in ["a.jpg", "b.jpg", "c.jpg", "d.jpg"] {
            try tree.write(name)
            let deadline = ContinuousClock.now + .seconds(30)
            while inotify.hasUnreadEvents, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(5))
            }
            #expect(!inotify.hasUnreadEvents, "the reader thread did not read \(name)'s events")
        }
        let seen = await collector.collect(inOrder: [.fileLinked(tree.pathBytes("a.jpg")), .overflow])
        #expect(seen, "actions: \(collector.actions)")
        #expect(!collector.actions.contains(.fileWritten(tree.pathBytes("c.jpg"))))
    }

    @Test func closeEndsTheStreamPromptly() async throws {
        let inotify = try Inotify()
        let stream = inotify.events()
        let reader = Task {
            var batches = 0
            for await _ in stream { batches += 1 }
            return ContinuousClock.now
        }
        try await Task.sleep(for: .milliseconds(50))
        // Timed on a thread of its own: the reader thread finishes the stream, then closes the
        // descriptors, and neither waits for Swift's concurrency threads, which other tests
        // running side by side can keep busy for seconds.
        let readerLeft = await Self.timeUntil { !inotify.descriptorsOpen } after: { inotify.close() }
        #expect(readerLeft < .seconds(10), "a reader that missed the wake would block until the next event, forever here")
        #expect(!inotify.descriptorsOpen)
        _ = await reader.value  // and the consumer sees the stream end
        #expect(throws: WatcherError.self) { try inotify.addWatch(PathBytes("/tmp"), mask: WatchMask.directory) }
        var again = inotify.events().makeAsyncIterator()
        #expect(await again.next() == nil)
    }

    /// Runs `action`, then polls `condition` every millisecond on a new thread (for at most
    /// 10 s); how long after `action` it first held.
    static func timeUntil(_ condition: @escaping @Sendable () -> Bool,
                          after action: @escaping @Sendable () -> Void) async -> Duration {
        await withCheckedContinuation { continuation in
            Thread {
                let start = ContinuousClock.now
                action()
                while !condition(), ContinuousClock.now - start < .seconds(10) { usleep(1000) }
                continuation.resume(returning: ContinuousClock.now - start)
            }.start()
        }
    }

    @Test func aFifoNobodyOpenedIsNotTouched() async throws {
        let tree = try TempTree()
        defer { tree.remove() }
        try tree.makeFolder("sub")
        #expect(mkfifo(tree.path("sub/before.fifo"), 0o644) == 0)
        let inotify = try Inotify()
        defer { inotify.close() }
        let set = WatchSet(inotify: inotify, budget: 100)
        #expect(set.watchTree(tree.pathBytes()).isEmpty)
        #expect(set.watchCount == 2)
        var collector = ActionCollector(inotify: inotify, set: set)
        defer { collector.finish() }

        #expect(mkfifo(tree.path("after.fifo"), 0o644) == 0)
        try tree.write("marker.jpg")
        let seen = await collector.collect(inOrder: [
            .fileLinked(tree.pathBytes("after.fifo")), .fileWritten(tree.pathBytes("marker.jpg")),
        ])
        #expect(seen, "actions: \(collector.actions)")
        #expect(!collector.actions.contains(.fileWritten(tree.pathBytes("after.fifo"))))
        for fifo in ["after.fifo", "sub/before.fifo"] {
            // Opening a FIFO's write end without blocking fails with ENXIO while no reader has it open.
            let fd = open(tree.path(fifo), O_WRONLY | O_NONBLOCK)
            let error = errno
            if fd >= 0 { close(fd) }
            #expect(fd < 0 && error == ENXIO, "\(fifo) has a reader")
        }
    }

    @Test func kernelBudgetLeavesAMargin() throws {
        let budget = WatchSet.kernelBudget()
        let limit = try #require(Inotify.maxUserWatches())
        #expect(budget == max(0, limit - max(256, limit / 10)))
        #expect(budget < limit)
    }
}
