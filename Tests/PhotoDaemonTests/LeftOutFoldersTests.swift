import FileSystem
import Store
import Testing
@testable import PhotoDaemon

/// The folders a reconcile leaves out (drives away, folders the walk could not read), and the reconcile keeping their photos.
@Suite struct LeftOutFoldersTests {
    @Test func aPathIsHeldOnlyByAFolderItLiesInWholeComponentByComponent() {
        var folders = LeftOutFolders()
        #expect(!folders.holds(PathBytes("/r/a/b.jpg")))
        folders.add(PathBytes("/r/a"))
        // "!" sorts before "/": a sibling whose name extends this one's comes between the
        // folder and its files in byte order, and must neither hide nor be taken for them.
        folders.add(PathBytes("/r/a!x"))
        folders.add(PathBytes("/r/z"))
        #expect(folders.holds(PathBytes("/r/a/b.jpg")))
        #expect(folders.holds(PathBytes("/r/a/deep/c.jpg")))
        #expect(folders.holds(PathBytes("/r/a!x/c.jpg")))
        #expect(folders.holds(PathBytes("/r/z/c.jpg")))
        #expect(!folders.holds(PathBytes("/r/a")))
        #expect(!folders.holds(PathBytes("/r/ab/c.jpg")))
        #expect(!folders.holds(PathBytes("/r/a.jpg")))
        #expect(!folders.holds(PathBytes("/r/b/c.jpg")))
        #expect(!folders.holds(PathBytes("/q/a/c.jpg")))
    }

    @Test func aFolderInsideOneAlreadyAddedChangesNothing() {
        var folders = LeftOutFolders()
        folders.add(PathBytes("/r/a"))
        folders.add(PathBytes("/r/a/b"))
        folders.add(PathBytes("/r/c"))
        #expect(folders.holds(PathBytes("/r/a/b/c.jpg")))
        #expect(folders.holds(PathBytes("/r/c/d.jpg")))
        #expect(!folders.holds(PathBytes("/r/b/d.jpg")))
    }

    @Test func aFolderHoldingOnesAlreadyAddedTakesTheirPlace() {
        var folders = LeftOutFolders([PathBytes("/r/a/b"), PathBytes("/r/a!x"), PathBytes("/r/a/c/d")])
        folders.add(PathBytes("/r/a"))
        #expect(folders.holds(PathBytes("/r/a/e.jpg")), "the folder added last holds all of itself")
        #expect(folders.holds(PathBytes("/r/a/b/f.jpg")) && folders.holds(PathBytes("/r/a/c/d/f.jpg")))
        #expect(folders.holds(PathBytes("/r/a!x/f.jpg")), "a sibling sorting between it and its files stays")
        #expect(!folders.holds(PathBytes("/r/b/f.jpg")) && !folders.holds(PathBytes("/r/a")))
    }

    @Test func indexedFilesInAFolderTheWalkCouldNotReadAreNeitherGoneNorRead() {
        var feed = ReconcileFeed(pairing: false)
        _ = feed.fetches()
        let stamp = FileStamp(device: 7, inode: 1, size: 100, mtimeNs: 1)
        // Paged in before the walk got there.
        feed.paged([IndexedFile(id: "a", path: PathBytes("/r/a.jpg"), stamp: stamp),
                    IndexedFile(id: "b", path: PathBytes("/r/locked/b.jpg"), stamp: stamp),
                    IndexedFile(id: "c", path: PathBytes("/r/z.jpg"), stamp: stamp)])
        // The walk found a.jpg, could not read locked (a partial listing's file included), and ended.
        let read = ReconcilePlan.Read(path: PathBytes("/r/locked/partial.jpg"), stamp: stamp, id: nil)
        feed.walked(LibraryWalk.Step(files: [ReconcilePlan.Read(path: PathBytes("/r/a.jpg"), stamp: stamp, id: nil), read],
                                     found: 2, ended: true, unreadable: [PathBytes("/r/locked")]))
        #expect(feed.isExhausted)
        var merge = feed.takeMerge()
        let plan = merge.finish()
        #expect(plan.vanished.map(\.id) == ["c"], "only z.jpg is gone")
        #expect(plan.reads.isEmpty)
    }
}
