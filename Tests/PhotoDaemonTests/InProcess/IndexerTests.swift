import FileSystem
import Foundation
import PhotoTestSupport
import Testing
import Watcher
@testable import PhotoDaemon

/// `Indexer`: commands carried out one at a time, in order, by the one loop.
@Suite struct IndexerTests {
    @Test func aCommandSentBeforeTheLoopRunsWaitsAndIsAnsweredOnceItDoes() async throws {
        try await IndexingRig.with(files: ["a.jpg": TestPhoto.jpeg("Beach")]) { rig in
            let asked = Task { try await rig.indexer.reconcile(reason: "test") }
            #expect(await eventually { rig.indexer.queue.sent == 1 })
            #expect(try await rig.store.read { try $0.totals() }.assets == 0)
            let report = try await rig.withCommandLoop { try await asked.value }
            #expect(report.inserted == 1)
            #expect(rig.log.contains("reconciled (test)"))
        }
    }

    @Test func commandsRunInTheOrderTheyWereSent() async throws {
        try await IndexingRig.with { rig in
            try rig.write("a.jpg", TestPhoto.jpeg("Beach"))
            // Sent in this order before the loop starts: the live write must land before the
            // reconcile counts it unchanged; the other way round the reconcile would insert it.
            rig.post([.fileWritten(rig.path("a.jpg"))])
            let reconcile = Task { try await rig.indexer.reconcile(reason: "after the live write") }
            #expect(await eventually { rig.indexer.queue.sent == 2 })
            let report = try await rig.withCommandLoop { try await reconcile.value }
            #expect(report.inserted == 0)
            #expect(report.unchanged == 1)
        }
    }

    @Test func anAskerThatGivesUpIsAnsweredAtOnceAndItsCommandIsSkipped() async throws {
        try await IndexingRig.with(files: ["a.jpg": TestPhoto.jpeg("Beach")]) { rig in
            let asked = Task { try await rig.indexer.reconcile(reason: "abandoned") }
            #expect(await eventually { rig.indexer.queue.sent == 1 })
            asked.cancel()
            await #expect(throws: CancellationError.self) { try await asked.value }
            // The loop now finds an answered command: it must not run it.
            let report = try await rig.withCommandLoop { try await rig.indexer.reconcile(reason: "next") }
            #expect(report.inserted == 1)
            #expect(!rig.log.contains("reconciled (abandoned)"))
        }
    }

    @Test func aStoppedIndexerRefusesNewCommands() async throws {
        try await IndexingRig.with { rig in
            let loop = Task { await rig.indexer.runCommands() }
            loop.cancel()
            await loop.value
            await #expect(throws: IndexerStoppedError.self) { try await rig.indexer.reconcile(reason: "too late") }
        }
    }

    @Test func replacingTheRootsIndexesAnAddedOneAndEmptiesARemovedOne() async throws {
        try await IndexingRig.with(files: ["a.jpg": TestPhoto.jpeg("Beach"), "extra/b.jpg": TestPhoto.jpeg("Hike")]) { rig in
            let extra = LibraryRoot(configured: rig.dir.file("more"))
            try rig.dir.write("more/c.jpg", TestPhoto.jpeg("Snow"))
            try await rig.withCommandLoop {
                _ = try await rig.indexer.reconcile(reason: "start-up")
                #expect(try await rig.store.read { try $0.totals() }.assets == 2)
                let change = try await rig.indexer.replaceRoots([extra])
                #expect(change == RootChange(added: [extra.configured], removed: [rig.library]))
                #expect(rig.roots.all == [extra])
                let groups = try await rig.store.read { try $0.groups() }.map(\.name)
                #expect(groups == ["Snow"])
            }
        }
    }

    @Test func aFolderRenamedInsideTheLibraryKeepsEveryId() async throws {
        try await IndexingRig.with(files: ["trip/a.jpg": TestPhoto.jpeg("Beach"), "trip/deep/b.jpg": TestPhoto.jpeg("Hike")]) { rig in
            try await rig.withCommandLoop {
                _ = try await rig.indexer.reconcile(reason: "start-up")
                let before = try await rig.indexed()
                try rig.move("trip", "2021-trip")
                try await rig.apply([.directoryMoved(from: rig.path("trip"), to: rig.path("2021-trip"))])
                let after = try await rig.indexed()
                #expect(after["2021-trip/a.jpg"]?.id == before["trip/a.jpg"]?.id)
                #expect(after["2021-trip/deep/b.jpg"]?.id == before["trip/deep/b.jpg"]?.id)
                #expect(after.count == 2)
            }
        }
    }

    @Test func aNewFolderIsWatchedBeforeItIsScanned() async throws {
        try await IndexingRig.with { rig in
            try rig.write("new/a.jpg", TestPhoto.jpeg("Beach"))
            try await rig.withCommandLoop {
                try await rig.apply([.directoryCreated(rig.path("new"))])
            }
            #expect(rig.coverage.watches.watchCount == 1)
            #expect(try await rig.indexed()["new/a.jpg"]?.group == "Beach")
        }
    }

    @Test func theFirstReconcileOfARootWatchesEveryFolderAsItsWalkReachesIt() async throws {
        let files = ["a/1.jpg": TestPhoto.jpeg("A"), "a/b/2.jpg": TestPhoto.jpeg("B"), "c/3.jpg": TestPhoto.jpeg("C"),
                     ".hidden/4.jpg": TestPhoto.jpeg("H")]
        try await IndexingRig.with(files: files) { rig in
            #expect(rig.coverage.watches.watchCount == 0)
            let (report, watchesAfterAnother) = try await rig.withCommandLoop {
                let report = try await rig.indexer.reconcile(reason: "start-up")
                _ = try await rig.indexer.reconcile(reason: "again")
                return (report, rig.coverage.watches.watchCount)
            }
            #expect(report.inserted == 3)
            // The root, a, a/b and c; not the hidden folder, as the walk skips it.
            #expect(rig.coverage.watches.watchCount == 4)
            #expect(rig.coverage.watches.unwatched.isEmpty)
            #expect(rig.state.coverage(of: rig.library) == .watching)
            #expect(!rig.coverage.needsCovering(PathBytes(rig.library)))
            // Covered once: the next reconcile leaves the watches as they are.
            #expect(watchesAfterAnother == 4)
        }
    }

    @Test func aBudgetTheWalkRunsOutOfGoesToTheUpperFoldersAsACoverWouldGiveIt() async throws {
        let files = ["a/1.jpg": TestPhoto.jpeg("A"), "a/b/2.jpg": TestPhoto.jpeg("B"), "c/3.jpg": TestPhoto.jpeg("C")]
        let breadthFirst = try await IndexingRig.with(files: files, watchBudget: 3) { rig in
            rig.coverage.cover(PathBytes(rig.library))
            return rig.coverage.watches.unwatched.map { $0.description.dropFirst(rig.library.count) }
        }
        try await IndexingRig.with(files: files, watchBudget: 3) { rig in
            _ = try await rig.withCommandLoop { try await rig.indexer.reconcile(reason: "start-up") }
            // Depth first, the walk would have watched a/b and left c out; breadth first, c is watched.
            let unwatched = rig.coverage.watches.unwatched.map { $0.description.dropFirst(rig.library.count) }
            #expect(unwatched == breadthFirst)
            #expect(unwatched == ["/a/b"])
            #expect(rig.coverage.watches.watchCount == 3)
            #expect(rig.state.coverage(of: rig.library) == .polling)
        }
    }
}
