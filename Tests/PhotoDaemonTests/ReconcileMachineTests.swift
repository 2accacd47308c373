import FileSystem
import Store
import Testing
@testable import PhotoDaemon

private let wholeRoot = [PathRange(low: nil, high: nil)]

/// `count` files under /r/photos, inodes from `firstInode`.
private func files(_ count: Int, in folder: String = "/r/photos", firstInode: UInt64 = 1) -> [String: UInt64] {
    Dictionary(uniqueKeysWithValues: (0..<count).map { ("\(folder)/\($0).jpg", firstInode + UInt64($0)) })
}

private func machine(_ ranges: [PathRange] = wholeRoot, pairing: Bool, vanishedLimit: Int = 100) -> ReconcileMachine {
    ReconcileMachine(feeds: ranges.map { ReconcileFeed(pairing: pairing, range: $0, vanishedLimit: vanishedLimit) },
                     parallelism: 2, batchSize: 50)
}

@Suite struct ReconcileMachineTests {
    /// The count arrives while the walk goes on: it is the progress total, and a first index
    /// loads in bulk; the total is not corrected later, since it was right.
    @Test func aFirstIndexCountsItsFilesLoadsInBulkAndReadsEachFileOnce() {
        var world = SimulatedReconcile(disk: files(300), index: [:])
        world.walkStep = 100
        var reconcile = machine(pairing: false)
        #expect(world.run(&reconcile, ranges: wholeRoot))
        #expect(world.actions.filter { if case .count = $0 { true } else { false } }.count == 1)
        #expect(world.bulkLoads == [300])
        #expect(world.total == 300)
        #expect(world.insertedPaths.sorted() == files(300).keys.sorted())
        #expect(reconcile.report.read == 300)
        #expect(reconcile.report.scanned == 300)
        #expect(reconcile.phase == .draining)
    }

    /// Once the walk is settled the plan knows the total, so a late count changes nothing.
    @Test func aCountThatArrivesAfterSettlingIsIgnored() {
        var world = SimulatedReconcile(disk: files(40), index: [:])
        var reconcile = machine(pairing: false)
        #expect(world.run(&reconcile, ranges: wholeRoot))
        #expect(world.actions.contains { if case .count = $0 { true } else { false } })
        #expect(world.bulkLoads.isEmpty)
        #expect(world.total == 40)
    }

    @Test func aRootWithIndexedFilesIsNotCounted() {
        var world = SimulatedReconcile(disk: files(10), index: files(10))
        var reconcile = machine(pairing: true)
        #expect(world.run(&reconcile, ranges: wholeRoot))
        #expect(!world.actions.contains { if case .count = $0 { true } else { false } })
        #expect(world.total == 0)
    }

    @Test func unchangedFilesAreNeitherReadNorWritten() {
        var world = SimulatedReconcile(disk: files(25), index: files(25))
        var reconcile = machine(pairing: true)
        #expect(world.run(&reconcile, ranges: wholeRoot))
        #expect(!world.actions.contains { if case .read = $0 { true } else { false } })
        #expect(world.committed.isEmpty)
        #expect(reconcile.report.unchanged == 25)
        #expect(reconcile.report.scanned == 25)
    }

    /// More rows vanished than the walk keeps: the index is swept a page at a time, each page
    /// after the last, and every vanished row is removed.
    @Test func rowsBeyondTheVanishedLimitAreSweptOnePageAtATime() {
        var world = SimulatedReconcile(disk: files(1, in: "/r/kept", firstInode: 100), index: files(10))
        var reconcile = machine(pairing: true, vanishedLimit: 2)
        #expect(world.run(&reconcile, ranges: wholeRoot))
        let sweeps = world.actions.compactMap { action -> PathBytes?? in
            if case .sweep(let after) = action { .some(after) } else { nil }
        }
        #expect(sweeps.count == 4)  // pages of 3, 3, 3 and 1 rows
        #expect(sweeps.first == .some(nil))
        #expect(world.overlappingSweeps == 0)
        #expect(world.removedIDs.sorted() == files(10).values.map { "id\($0)" }.sorted())
    }

    /// Without a sweep, the vanished rows leave in the settled plan and no page is swept.
    @Test func vanishedRowsWithinTheLimitAreRemovedWithoutASweep() {
        var world = SimulatedReconcile(disk: [:], index: files(5))
        var reconcile = machine(pairing: true, vanishedLimit: 10)
        #expect(world.run(&reconcile, ranges: wholeRoot))
        #expect(!world.actions.contains { if case .sweep = $0 { true } else { false } })
        #expect(world.removedIDs.sorted() == files(5).values.map { "id\($0)" }.sorted())
    }

    /// A folder renamed while nobody watched, across two ranges of the walk: settled once, its
    /// assets keep their ids and only their paths are written, nothing read.
    @Test func aFolderRenamedAcrossRangesIsWrittenAsMovesWithoutReading() {
        let ranges = [PathRange(low: nil, high: PathBytes("/r/m")), PathRange(low: PathBytes("/r/m"), high: nil)]
        var world = SimulatedReconcile(disk: files(5, in: "/r/z"), index: files(5, in: "/r/a"))
        var reconcile = machine(ranges, pairing: true)
        #expect(world.run(&reconcile, ranges: ranges))
        #expect(world.actions.filter { if case .settle = $0 { true } else { false } }.count == 1)
        #expect(!world.actions.contains { if case .read = $0 { true } else { false } })
        let updates = world.committed.flatMap(\.updates)
        #expect(updates.map(\.id).sorted() == files(5).values.map { "id\($0)" }.sorted())
        #expect(updates.allSatisfy { $0.content == nil && $0.path.bytes.starts(with: Array("/r/z/".utf8)) })
        #expect(world.removedIDs.isEmpty)
    }

    /// Commits go to the writer one at a time and in batches of the size asked for.
    @Test func writesAreCommittedInBatchesOfTheBatchSize() {
        var world = SimulatedReconcile(disk: files(120), index: [:])
        var reconcile = machine(pairing: false)
        #expect(world.run(&reconcile, ranges: wholeRoot))
        #expect(world.committed.map(\.count).max() == 50)
        #expect(world.committed.reduce(0) { $0 + $1.count } == 120)
    }
}
