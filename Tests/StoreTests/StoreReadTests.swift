import FileSystem
import Foundation
import PhotoTestSupport
import Testing
@testable import Store

@Suite struct StoreReadTests {
    @Test func indexedFilesStayInsideTheRootPrefix() async throws {
        let dir = try TemporaryDirectory()
        let store = try await openStore(dir)
        defer { withExtendedLifetime(dir) {} }
        var batch = WriteBatch()
        batch.inserts = [insert("/lib/a.jpg", 1, "A"), insert("/lib2/b.jpg", 2, "A"), insert("/li/c.jpg", 3, "A"),
                         insert("/lib/deep/d.jpg", 4, "A")]
        _ = try await store.write { [batch] in try $0.apply(batch) }
        let paths = try await store.read { try $0.indexedFiles(under: PathBytes("/lib")) }.map { $0.path.description }
        #expect(Set(paths) == ["/lib/a.jpg", "/lib/deep/d.jpg"])
        await #expect(try store.read { try $0.assetCount(under: PathBytes("/lib")) } == 2)
        await #expect(try store.read { try $0.assetCount(under: PathBytes("/")) } == 4)
    }

    /// A root holding most folders is counted as every asset less those outside it: the same figure.
    @Test func aRootHoldingMostFoldersCountsTheSameFromTheRest() async throws {
        let paths = ["/lib/a/1.jpg", "/lib/a/2.jpg", "/lib/b/3.jpg", "/lib/c/4.jpg", "/lib/d/5.jpg", "/lib0/6.jpg",
                     "/lib-x/7.jpg", "/lib-x/8.jpg", "/li/9.jpg"]
        let dir = try TemporaryDirectory()
        defer { withExtendedLifetime(dir) {} }
        let store = try await openStore(dir)
        var batch = WriteBatch()
        batch.inserts = paths.enumerated().map { insert($1, Int64($0 + 1), "A") }
        _ = try await store.write { [batch] in try $0.apply(batch) }
        func count(_ root: String) async throws -> Int { try await store.read { try $0.assetCount(under: PathBytes(root)) } }
        #expect(try await count("/lib") == 5, "4 of the 7 folders: counted from the 4 photos outside")
        #expect(try await count("/lib/a") == 2)
        #expect(try await count("/lib-x") == 2)
        #expect(try await count("/nowhere") == 0)
        #expect(try await count("/") == 9)
    }

    @Test(arguments: StoreSort.allCases, [nil, "B"])
    func pagesCoverEveryAssetOnceInOrder(sort: StoreSort, group: String?) async throws {
        let dir = try TemporaryDirectory()
        let store = try await openStore(dir)
        defer { withExtendedLifetime(dir) {} }
        var batch = WriteBatch()
        for n in 0..<57 {
            // Repeated taken values exercise the id tie-break.
            batch.inserts.append(insert("/lib/\(String(format: "%03d", (n * 37) % 57)).jpg", Int64(n),
                                        n % 3 == 0 ? "A" : "B", taken: Int64(n % 5)))
        }
        _ = try await store.write { [batch] in try $0.apply(batch) }
        var seen: [StoredAsset] = []
        var position: StorePosition?
        while true {
            let page = try await store.read { [position] in try $0.assets(groupKey: group, sort: sort, after: position, limit: 10) }
            if page.isEmpty { break }
            seen += page
            let last = try #require(page.last)
            switch sort {
            case .taken: position = StorePosition(value: .integer(last.content.takenNs ?? last.stamp.mtimeNs), id: last.id)
            case .modified: position = StorePosition(value: .integer(last.stamp.mtimeNs), id: last.id)
            case .path: position = StorePosition(value: .path(last.path), id: last.id)
            }
        }
        let expected = group == nil ? 57 : (0..<57).filter { $0 % 3 != 0 }.count
        #expect(seen.count == expected)
        #expect(Set(seen.map(\.id)).count == expected)
        let keys: [String] = seen.map { asset in
            switch sort {
            case .taken: return String(format: "%020lld|", asset.content.takenNs ?? 0) + asset.id
            case .modified: return String(format: "%020lld|", asset.stamp.mtimeNs) + asset.id
            case .path: return asset.path.description
            }
        }
        #expect(keys == keys.sorted())
    }

    @Test func theChangeLogReplaysInTokenOrder() async throws {
        let dir = try TemporaryDirectory()
        let store = try await openStore(dir)
        defer { withExtendedLifetime(dir) {} }
        for n in 0..<3 {
            var batch = WriteBatch()
            batch.inserts = [insert("/lib/\(n).jpg", Int64(n), "A")]
            _ = try await store.write { [batch] in try $0.apply(batch) }
        }
        let changes = try await store.read { try $0.changes(after: 1) }
        #expect(changes.map(\.token) == [2, 3])
        #expect(changes.allSatisfy { $0.inserted.count == 1 })
    }

    @Test func theIndexSurvivesReopeningAndTokensKeepGrowing() async throws {
        let dir = try TemporaryDirectory()
        var id = ""
        do {
            let store = try await openStore(dir)
        defer { withExtendedLifetime(dir) {} }
            var batch = WriteBatch()
            batch.inserts = [insert("/lib/a.jpg", 1, "A")]
            let batchChange = try await store.write { [batch] in try $0.apply(batch) }
            id = try #require(batchChange?.inserted.first)
        }
        let reopened = try await openStore(dir)
        let found = try await reopened.read { [id] in try $0.assets(ids: [id]) }
        #expect(found.count == 1)
        var batch = WriteBatch()
        batch.inserts = [insert("/lib/b.jpg", 2, "A")]
        let batchChange = try await reopened.write { [batch] in try $0.apply(batch) }
        #expect(batchChange?.token == 2)
    }

    @Test func theDatabaseIsPrivateToItsOwner() async throws {
        let dir = try TemporaryDirectory()
        _ = try await openStore(dir)
        let attributes = try FileManager.default.attributesOfItem(atPath: dir.file("state/index.sqlite"))
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: dir.file("state"))
        #expect((folder[.posixPermissions] as? Int) == 0o700)
    }

    @Test func settingsPersist() async throws {
        let dir = try TemporaryDirectory()
        let store = try await openStore(dir)
        defer { withExtendedLifetime(dir) {} }
        await #expect(try store.read { try $0.setting("grouping") } == nil)
        try await store.write { try $0.setSetting("grouping", to: "v1") }
        try await store.write { try $0.setSetting("grouping", to: "v2") }
        await #expect(try store.read { try $0.setting("grouping") } == "v2")
    }

    @Test func assetIdsAreDistinctAndUseTheDocumentedAlphabet() {
        let ids = (0..<5000).map { _ in AssetID.generate() }
        #expect(Set(ids).count == ids.count)
        let alphabet = Set("0123456789abcdefghjkmnpqrstvwxyz")
        #expect(ids.allSatisfy { $0.count == 16 && $0.allSatisfy(alphabet.contains) })
    }
}

@Suite struct ChangeLogRetentionTests {
    @Test func theLogKeepsOnlyTheNewestChangesAndObserversHearEachInOrder() async throws {
        let dir = try TemporaryDirectory()
        let heard = Mutexed<[Int64]>([])
        let store = try Store(path: dir.file("i.sqlite"), changeRetention: 3, onCommit: { change in
            heard.update { $0.append(change.token) }
        })
        defer { withExtendedLifetime(dir) {} }
        for n in 0..<6 {
            var batch = WriteBatch()
            batch.inserts = [insert("/lib/\(n).jpg", Int64(n), "A")]
            _ = try await store.write { [batch] in try $0.apply(batch) }
        }
        #expect(heard.get() == [1, 2, 3, 4, 5, 6])
        await #expect(try store.read { try $0.oldestLoggedToken() } == 4)
        await #expect(try store.read { try $0.changes(after: 0) }.map(\.token) == [4, 5, 6])
        await #expect(try store.read { try $0.currentToken() } == 6)
    }

    @Test func indexedFileAtPathFindsExactlyThatPath() async throws {
        let dir = try TemporaryDirectory()
        let store = try await openStore(dir)
        defer { withExtendedLifetime(dir) {} }
        var batch = WriteBatch()
        batch.inserts = [insert("/lib/a.jpg", 1, "A")]
        let batchChange = try await store.write { [batch] in try $0.apply(batch) }
        let id = try #require(batchChange?.inserted.first)
        await #expect(try store.read { try $0.indexedFile(at: PathBytes("/lib/a.jpg")) }?.id == id)
        await #expect(try store.read { try $0.indexedFile(at: PathBytes("/lib/a.jp")) } == nil)
    }
}
