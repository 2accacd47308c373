import FileSystem
import Foundation
import PhotoTestSupport
import Testing
@testable import Store

/// A stamp whose fields all derive from `n`, so different n means a different file version.
func stamp(_ n: Int64, inode: UInt64? = nil) -> FileStamp {
    FileStamp(device: 1, inode: inode ?? UInt64(n), size: 1000 + n, mtimeNs: 1_700_000_000_000_000_000 + n)
}

func content(_ group: String, spelling: String? = nil, taken: Int64? = nil) -> AssetContent {
    AssetContent(groupKey: group, groupSpelling: spelling ?? group, description: group, descriptionSource: "exif",
                 format: "jpeg", taken: taken.map { "t\($0)" }, takenNs: taken)
}

func insert(_ path: String, _ n: Int64, _ group: String, taken: Int64? = nil) -> WriteBatch.Insert {
    WriteBatch.Insert(path: PathBytes(path), stamp: stamp(n), content: content(group, taken: taken))
}

/// Opens a store in `dir`; the caller keeps `dir` alive for as long as it uses the store.
func openStore(_ dir: TemporaryDirectory) async throws -> Store {
    try Store(path: dir.file("state/index.sqlite"))
}

@Suite struct StoreWriteTests {
    @Test func insertsGetRandomIdsAndTheFirstToken() async throws {
        let dir = try TemporaryDirectory()
        let store = try await openStore(dir)
        defer { withExtendedLifetime(dir) {} }
        var batch = WriteBatch()
        batch.inserts = [insert("/lib/a.jpg", 1, "Beach"), insert("/lib/b.jpg", 2, "Beach")]
        let batchChange = try await store.write { [batch] in try $0.apply(batch) }
        let change = try #require(batchChange)
        #expect(change.token == 1)
        #expect(change.inserted.count == 2)
        #expect(Set(change.inserted).count == 2)
        #expect(change.inserted.allSatisfy { $0.count == 16 })
        #expect(change.groupsChanged == ["Beach"])
        await #expect(try store.read { try $0.currentToken() } == 1)
        await #expect(try store.read { try $0.totals() } == (assets: 2, groups: 1))
    }

    @Test func anEmptyBatchCommitsNoChange() async throws {
        let dir = try TemporaryDirectory()
        let store = try await openStore(dir)
        defer { withExtendedLifetime(dir) {} }
        await #expect(try store.write { try $0.apply(WriteBatch()) } == nil)
        await #expect(try store.read { try $0.currentToken() } == 0)
    }

    @Test func contentChangeMovesTheAssetBetweenGroupsAndEmptiesTheOld() async throws {
        let dir = try TemporaryDirectory()
        let store = try await openStore(dir)
        defer { withExtendedLifetime(dir) {} }
        var batch = WriteBatch()
        batch.inserts = [insert("/lib/a.jpg", 1, "Beach")]
        let batchChange = try await store.write { [batch] in try $0.apply(batch) }
        let id = try #require(batchChange?.inserted.first)
        var update = WriteBatch()
        update.updates = [WriteBatch.Update(id: id, path: PathBytes("/lib/a.jpg"), stamp: stamp(2, inode: 1),
                                            content: content("Garden"))]
        let updateChange = try await store.write { [update] in try $0.apply(update) }
        let change = try #require(updateChange)
        #expect(change.updated == [id])
        #expect(change.moved.isEmpty)
        #expect(change.groupsRemoved == ["Beach"])
        #expect(change.groupsChanged == ["Garden"])
        await #expect(try store.read { try $0.groups() }.map(\.name) == ["Garden"])
        await #expect(try store.read { try $0.assets(ids: [id]) }.first?.groupName == "Garden")
    }

    @Test func aPathChangeKeepsTheIdAndIsReportedAsAMove() async throws {
        let dir = try TemporaryDirectory()
        let store = try await openStore(dir)
        defer { withExtendedLifetime(dir) {} }
        var batch = WriteBatch()
        batch.inserts = [insert("/lib/a.jpg", 1, "Beach")]
        let batchChange = try await store.write { [batch] in try $0.apply(batch) }
        let id = try #require(batchChange?.inserted.first)
        var move = WriteBatch()
        move.updates = [WriteBatch.Update(id: id, path: PathBytes("/lib/sub/a.jpg"), stamp: stamp(1), content: nil)]
        let moveChange = try await store.write { [move] in try $0.apply(move) }
        let change = try #require(moveChange)
        #expect(change.moved == [MovedAsset(id: id, from: PathBytes("/lib/a.jpg"), to: PathBytes("/lib/sub/a.jpg"))])
        #expect(change.updated.isEmpty)
        #expect(change.groupsChanged.isEmpty)
        await #expect(try store.read { try $0.assets(ids: [id]) }.first?.path == PathBytes("/lib/sub/a.jpg"))
    }

    @Test func swappingTwoNamesInOneBatchDoesNotCollide() async throws {
        let dir = try TemporaryDirectory()
        let store = try await openStore(dir)
        defer { withExtendedLifetime(dir) {} }
        var batch = WriteBatch()
        batch.inserts = [insert("/lib/a.jpg", 1, "A"), insert("/lib/b.jpg", 2, "B")]
        let batchChange = try await store.write { [batch] in try $0.apply(batch) }
        let ids = try #require(batchChange?.inserted)
        var swap = WriteBatch()
        swap.updates = [
            WriteBatch.Update(id: ids[0], path: PathBytes("/lib/b.jpg"), stamp: stamp(1), content: nil),
            WriteBatch.Update(id: ids[1], path: PathBytes("/lib/a.jpg"), stamp: stamp(2), content: nil),
        ]
        let swapChange = try await store.write { [swap] in try $0.apply(swap) }
        let change = try #require(swapChange)
        #expect(change.moved.count == 2)
        #expect(change.removed.isEmpty)
        let byID = await Dictionary(uniqueKeysWithValues: try store.read { try $0.assets(ids: ids) }.map { ($0.id, $0.path) })
        #expect(byID[ids[0]] == PathBytes("/lib/b.jpg"))
        #expect(byID[ids[1]] == PathBytes("/lib/a.jpg"))
    }

    @Test func insertingOverAnIndexedPathReplacesTheOldAsset() async throws {
        let dir = try TemporaryDirectory()
        let store = try await openStore(dir)
        defer { withExtendedLifetime(dir) {} }
        var batch = WriteBatch()
        batch.inserts = [insert("/lib/a.jpg", 1, "A")]
        let batchChange = try await store.write { [batch] in try $0.apply(batch) }
        let old = try #require(batchChange?.inserted.first)
        var again = WriteBatch()
        again.inserts = [insert("/lib/a.jpg", 9, "B")]
        let againChange = try await store.write { [again] in try $0.apply(again) }
        let change = try #require(againChange)
        #expect(change.removed == [old])
        #expect(change.inserted.count == 1)
        await #expect(try store.read { try $0.totals() } == (assets: 1, groups: 1))
    }

    @Test func removalEmptiesTheGroup() async throws {
        let dir = try TemporaryDirectory()
        let store = try await openStore(dir)
        defer { withExtendedLifetime(dir) {} }
        var batch = WriteBatch()
        batch.inserts = [insert("/lib/a.jpg", 1, "Beach")]
        let batchChange = try await store.write { [batch] in try $0.apply(batch) }
        let id = try #require(batchChange?.inserted.first)
        var removal = WriteBatch()
        removal.removals = [id, "no-such-id"]
        let removalChange = try await store.write { [removal] in try $0.apply(removal) }
        let change = try #require(removalChange)
        #expect(change.removed == [id])
        #expect(change.groupsRemoved == ["Beach"])
        await #expect(try store.read { try $0.groups() }.isEmpty)
        await #expect(try store.read { try $0.assets(ids: [id]) }.isEmpty)
    }

    /// A reconcile's vanished row is removed only while it is still at the path no file was
    /// found at: a move written before it, in the same batch or an earlier one, keeps the asset.
    @Test func aVanishedRowIsRemovedOnlyWhileItIsStillThere() async throws {
        let dir = try TemporaryDirectory()
        let store = try await openStore(dir)
        defer { withExtendedLifetime(dir) {} }
        var batch = WriteBatch()
        batch.inserts = [insert("/lib/a.jpg", 1, "Beach"), insert("/lib/b.jpg", 2, "Beach"), insert("/lib/c.jpg", 3, "Hike")]
        let batchChange = try await store.write { [batch] in try $0.apply(batch) }
        let ids = try #require(batchChange?.inserted)
        let (a, b, c) = (ids[0], ids[1], ids[2])
        var moveFirst = WriteBatch()
        moveFirst.updates = [WriteBatch.Update(id: a, path: PathBytes("/lib/moved/a.jpg"),
                                               stamp: FileStamp(device: 1, inode: 1, size: 10, mtimeNs: 1), content: nil)]
        _ = try await store.write { [moveFirst] in try $0.apply(moveFirst) }
        var sweep = WriteBatch()
        // b moves in the same batch as its removal: the writer applies updates first.
        sweep.updates = [WriteBatch.Update(id: b, path: PathBytes("/lib/moved/b.jpg"),
                                           stamp: FileStamp(device: 1, inode: 2, size: 10, mtimeNs: 1), content: nil)]
        sweep.vanished = [WriteBatch.Vanished(id: a, path: PathBytes("/lib/a.jpg")),
                          WriteBatch.Vanished(id: b, path: PathBytes("/lib/b.jpg")),
                          WriteBatch.Vanished(id: c, path: PathBytes("/lib/c.jpg"))]
        let sweepChange = try await store.write { [sweep] in try $0.apply(sweep) }
        let change = try #require(sweepChange)
        #expect(change.removed == [c])
        #expect(Set(try await store.read { try $0.assets(ids: [a, b, c]) }.map(\.id)) == [a, b])
    }

    @Test func aPathThatIsNotUTF8RoundTrips() async throws {
        let dir = try TemporaryDirectory()
        let store = try await openStore(dir)
        defer { withExtendedLifetime(dir) {} }
        let path = PathBytes(Array("/lib/caf".utf8) + [0xE9, 0xFF] + Array(".jpg".utf8))
        var batch = WriteBatch()
        batch.inserts = [WriteBatch.Insert(path: path, stamp: stamp(1), content: content("A"))]
        let batchChange = try await store.write { [batch] in try $0.apply(batch) }
        let id = try #require(batchChange?.inserted.first)
        await #expect(try store.read { try $0.assets(ids: [id]) }.first?.path == path)
        await #expect(try store.read { try $0.indexedFiles(under: PathBytes("/lib")) }.map(\.path) == [path])
    }

    @Test func theMostCommonSpellingNamesAGroup() async throws {
        let dir = try TemporaryDirectory()
        let store = try await openStore(dir)
        defer { withExtendedLifetime(dir) {} }
        var batch = WriteBatch()
        for (index, spelling) in ["beach", "Beach", "Beach"].enumerated() {
            batch.inserts.append(WriteBatch.Insert(
                path: PathBytes("/lib/\(index).jpg"), stamp: stamp(Int64(index)),
                content: content("beach", spelling: spelling)))
        }
        _ = try await store.write { [batch] in try $0.apply(batch) }
        await #expect(try store.read { try $0.groups() }.map(\.name) == ["Beach"])
    }

    @Test func groupLatestIsTheNewestTakenAsset() async throws {
        let dir = try TemporaryDirectory()
        let store = try await openStore(dir)
        defer { withExtendedLifetime(dir) {} }
        var batch = WriteBatch()
        batch.inserts = [insert("/lib/a.jpg", 1, "A", taken: 50), insert("/lib/b.jpg", 2, "A", taken: 70),
                         insert("/lib/c.jpg", 3, "A", taken: 60)]
        _ = try await store.write { [batch] in try $0.apply(batch) }
        await #expect(try store.read { try $0.groups() }.first?.latestTaken == "t70")
        let ids = Dictionary(uniqueKeysWithValues: try await store.read { try $0.allAssets() }
            .map { ($0.path.description, $0.id) })
        // A move keeps the newest; the newest dated earlier, or leaving the group, hands it on.
        var move = WriteBatch()
        move.updates = [WriteBatch.Update(id: try #require(ids["/lib/b.jpg"]), path: PathBytes("/lib/2024/b.jpg"),
                                          stamp: stamp(2), content: nil)]
        _ = try await store.write { [move] in try $0.apply(move) }
        await #expect(try store.read { try $0.groups() }.first?.latestTaken == "t70")
        var redate = WriteBatch()
        redate.updates = [WriteBatch.Update(id: try #require(ids["/lib/b.jpg"]), path: PathBytes("/lib/2024/b.jpg"),
                                            stamp: stamp(2), content: content("A", taken: 10))]
        _ = try await store.write { [redate] in try $0.apply(redate) }
        await #expect(try store.read { try $0.groups() }.first?.latestTaken == "t60")
        var regroup = WriteBatch()
        regroup.updates = [WriteBatch.Update(id: try #require(ids["/lib/c.jpg"]), path: PathBytes("/lib/c.jpg"),
                                             stamp: stamp(3), content: content("B", taken: 60))]
        _ = try await store.write { [regroup] in try $0.apply(regroup) }
        await #expect(try store.read { try $0.groups() }.first { $0.key == "A" }?.latestTaken == "t50")
        await #expect(try store.read { try $0.groups() }.first { $0.key == "B" }?.latestTaken == "t60")
    }
}
