import Foundation
import Testing
@testable import Watcher

@Suite("WatchSet")
struct WatchSetTests {
    @Test func budgetLimitsTheWatchesAndListsTheRest() throws {
        let tree = try TempTree()
        defer { tree.remove() }
        try tree.makeFolder("n1/n2/n3/n4")
        let inotify = try Inotify()
        defer { inotify.close() }
        let set = WatchSet(inotify: inotify, budget: 3)
        let skipped = set.watchTree(tree.pathBytes())
        #expect(set.watchCount == 3)
        #expect(skipped == [tree.pathBytes("n1/n2/n3"), tree.pathBytes("n1/n2/n3/n4")])
        #expect(set.unwatched == skipped)

        set.unwatchTree(tree.pathBytes("n1/n2"))
        #expect(set.watchCount == 2)
        #expect(set.unwatched.isEmpty)
        #expect(set.watchTree(tree.pathBytes("n1/n2")) == skipped)
        #expect(set.watchCount == 3)
        #expect(set.unwatched == skipped)
    }

    @Test func unwatchTreeRemovesTheKernelWatchesOfTheSubtree() async throws {
        let tree = try TempTree()
        defer { tree.remove() }
        try tree.makeFolder("a/x")
        try tree.makeFolder("a/y")
        try tree.makeFolder("b")
        let inotify = try Inotify()
        defer { inotify.close() }
        let set = WatchSet(inotify: inotify, budget: 100)
        #expect(set.watchTree(tree.pathBytes()).isEmpty)
        #expect(set.watchCount == 5)
        let removed = try ["a", "a/x", "a/y"].map { try #require(set.watch(at: tree.pathBytes($0))) }
        set.unwatchTree(tree.pathBytes("a"))
        #expect(set.watchCount == 2)

        var collector = ActionCollector(inotify: inotify, set: set)
        defer { collector.finish() }
        try tree.write("a/x/hidden-from-us.jpg")
        try tree.write("b/seen.jpg")
        #expect(await collector.collect(inOrder: [.fileWritten(tree.pathBytes("b/seen.jpg"))]))
        #expect(collector.actions.allSatisfy { !$0.paths.contains { $0.isSameOrInside(tree.pathBytes("a")) } })
        // The kernel confirms each removal with IN_IGNORED.
        let released = await collector.collectEvents { events in
            Set(events.filter { $0.mask & WatchMask.ignored != 0 }.map(\.wd)) == Set(removed)
        }
        #expect(released, "events: \(collector.events)")
    }

    @Test func hiddenFoldersAndSymlinksAreNotWatched() throws {
        let tree = try TempTree()
        defer { tree.remove() }
        try tree.makeFolder(".cache/thumbs")
        try tree.makeFolder("visible")
        try FileManager.default.createSymbolicLink(atPath: tree.path("link"), withDestinationPath: tree.path("visible"))
        let inotify = try Inotify()
        defer { inotify.close() }
        let set = WatchSet(inotify: inotify, budget: 100)
        #expect(set.watchTree(tree.pathBytes()).isEmpty)
        #expect(set.watchCount == 2)
        #expect(set.unwatched.isEmpty)
    }

    @Test func aVanishedFolderIsSkippedNotReported() throws {
        let tree = try TempTree()
        defer { tree.remove() }
        let inotify = try Inotify()
        defer { inotify.close() }
        let set = WatchSet(inotify: inotify, budget: 100)
        #expect(set.watchTree(tree.pathBytes("missing")).isEmpty)
        #expect(set.watchCount == 0)
    }

    @Test func resetDropsEverything() throws {
        let tree = try TempTree()
        defer { tree.remove() }
        try tree.makeFolder("a/b")
        let inotify = try Inotify()
        defer { inotify.close() }
        let set = WatchSet(inotify: inotify, budget: 2)
        #expect(set.watchTree(tree.pathBytes()).count == 1)
        set.reset()
        #expect(set.watchCount == 0)
        #expect(set.unwatched.isEmpty)
        #expect(set.watchTree(tree.pathBytes()).count == 1)
        #expect(set.watchCount == 2)
    }

    @Test func unwatchedFoldersFollowRenamesAndRemovals() throws {
        let tree = try TempTree()
        defer { tree.remove() }
        try tree.makeFolder("a/b/c")
        let inotify = try Inotify()
        defer { inotify.close() }
        let set = WatchSet(inotify: inotify, budget: 2)
        #expect(set.watchTree(tree.pathBytes()) == [tree.pathBytes("a/b"), tree.pathBytes("a/b/c")])
        let root = try #require(set.watch(at: tree.pathBytes()))
        let events = [
            WatchEvent(wd: root, mask: WatchMask.movedFrom | WatchMask.isDirectory, cookie: 5, name: Array("a".utf8)),
            WatchEvent(wd: root, mask: WatchMask.movedTo | WatchMask.isDirectory, cookie: 5, name: Array("z".utf8)),
        ]
        #expect(set.decode(events, now: .now) == [.directoryMoved(from: tree.pathBytes("a"), to: tree.pathBytes("z"))])
        #expect(set.unwatched == [tree.pathBytes("z/b"), tree.pathBytes("z/b/c")])
        let removal = [WatchEvent(wd: root, mask: WatchMask.delete | WatchMask.isDirectory, cookie: 0, name: Array("z".utf8))]
        #expect(set.decode(removal, now: .now) == [.directoryRemoved(tree.pathBytes("z"))])
        #expect(set.unwatched.isEmpty)
        #expect(set.watchCount == 1)
    }
}
