import FileSystem
import Foundation
import PhotoTestSupport
import Store
import Testing

/// Selection queries (what a limited app sees) and stored app records.
@Suite struct StoreSelectionTests {
    static func content(_ key: String, taken: Int64) -> AssetContent {
        AssetContent(groupKey: key, groupSpelling: key.capitalized, format: "jpeg", taken: nil, takenNs: taken)
    }

    /// beach ×2, hike ×2, secret ×1 under /lib; returns the store and the ids by path.
    static func store(_ dir: TemporaryDirectory) async throws -> (Store, [String: String]) {
        let store = try Store(path: dir.file("index.sqlite"))
        var batch = WriteBatch()
        let files = [("b1", "beach"), ("b2", "beach"), ("h1", "hike"), ("h2", "hike"), ("s1", "secret")]
        for (index, (name, key)) in files.enumerated() {
            batch.inserts.append(WriteBatch.Insert(
                path: PathBytes("/lib/\(name).jpg"),
                stamp: FileStamp(device: 1, inode: UInt64(index + 1), size: 10, mtimeNs: Int64(index)),
                content: content(key, taken: Int64(index))))
        }
        _ = try await store.write { [batch] in try $0.apply(batch) }
        let all = try await store.read { try $0.assets(groupKey: nil, sort: .path, after: nil, limit: 100) }
        let ids = Dictionary(uniqueKeysWithValues: all.map { ($0.path.description, $0.id) })
        return (store, ids)
    }

    @Test func everyQueryCountsOnlyTheSelection() async throws {
        let dir = try TemporaryDirectory()
        let (store, ids) = try await Self.store(dir)
        let h1 = try #require(ids["/lib/h1.jpg"])
        let selection = StoreSelection(groupKeys: ["beach"], ids: [h1, "nosuchid"])
        let limited = LibraryAccess.selection(selection)
        await #expect(try store.read(as: limited) { try $0.groups() }.map { "\($0.key)=\($0.count)" } == ["beach=2", "hike=1"])
        await #expect(try store.read(as: limited) { try $0.totals() } == (assets: 3, groups: 2))
        await #expect(try store.read(as: limited) { try $0.assetCount(under: PathBytes("/lib")) } == 3)
        let listed = try await store.read { try $0.assets(groupKey: nil, sort: .taken, after: nil, limit: 100, selection: selection) }
        #expect(listed.map(\.id) == [ids["/lib/b1.jpg"], ids["/lib/b2.jpg"], h1].compactMap { $0 })
        let hike = try await store.read { try $0.assets(groupKey: "hike", sort: .path, after: nil, limit: 100, selection: selection) }
        #expect(hike.map(\.id) == [h1])
        await #expect(Set(try store.read { try $0.memberships(in: selection) }.map(\.id)) == Set(listed.map(\.id)))
        await #expect(try store.read { try $0.memberships(ids: [h1, "nosuchid"]) }
            == [AssetMembership(id: h1, groupKey: "hike", groupName: "Hike")])
        let empty = StoreSelection(groupKeys: [], ids: [])
        await #expect(try store.read(as: .selection(empty)) { try $0.totals() } == (assets: 0, groups: 0))
    }

    @Test func appRecordsAreStoredAndReplaced() async throws {
        let dir = try TemporaryDirectory()
        let store = try Store(path: dir.file("index.sqlite"))
        await #expect(try store.read { try $0.apps() }.isEmpty)
        try await store.write { try $0.saveApp(StoredApp(uid: 1000, id: "exe:/usr/bin/eog", record: Data("one".utf8))) }
        try await store.write { try $0.saveApp(StoredApp(uid: 1000, id: "app:org.gnome.Photos", record: Data("two".utf8))) }
        try await store.write { try $0.saveApp(StoredApp(uid: 1000, id: "exe:/usr/bin/eog", record: Data("three".utf8))) }
        let reopened = try Store(path: dir.file("index.sqlite"))
        await #expect(try reopened.read { try $0.apps() } == [StoredApp(uid: 1000, id: "app:org.gnome.Photos", record: Data("two".utf8)),
                                        StoredApp(uid: 1000, id: "exe:/usr/bin/eog", record: Data("three".utf8))])
    }
}
