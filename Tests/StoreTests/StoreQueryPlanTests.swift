import FileSystem
import Foundation
import PhotoTestSupport
import SQLite
import Testing
@testable import Store

/// Each listing and lookup is a range on an index of the compact layout: no query reads the
/// whole table or sorts more than the rows that share a sort value.
@Suite struct StoreQueryPlanTests {
    /// The plan SQLite picks for `sql` with `values`, one line per step.
    private func plan(_ store: Store, _ sql: String, _ values: [SQLiteValue]) throws -> String {
        try store.database.read { db in
            let explain = try db.statement("EXPLAIN QUERY PLAN " + sql)
            try explain.bind(values)
            var lines: [String] = []
            while try explain.step() { lines.append(explain.text(3) ?? "") }
            return lines.joined(separator: "\n")
        }
    }

    /// Whether the plan reads `assets a` whole.
    private func scansAssets(_ plan: String) -> Bool {
        plan.split(separator: "\n").contains { $0 == "SCAN a" || $0.hasPrefix("SCAN a ") }
    }

    private func store(_ dir: TemporaryDirectory) async throws -> Store {
        let store = try await openStore(dir)
        var batch = WriteBatch()
        batch.inserts = (0..<50).map { insert("/lib/\($0 % 5)/\($0).jpg", Int64($0), $0 % 2 == 0 ? "A" : "B", taken: Int64($0)) }
        _ = try await store.write { [batch] in try $0.apply(batch) }
        return store
    }

    @Test(arguments: StoreSort.allCases, [nil, "A"] as [String?])
    func aPageIsARangeOnItsOrdersIndex(sort: StoreSort, group: String?) async throws {
        let dir = try TemporaryDirectory()
        let store = try await store(dir)
        let listing = StoreListing(groupKey: group, sort: sort, descending: true)
        let position = sort == .path ? StorePosition(value: .path(PathBytes("/lib/3/33.jpg")), id: "x")
                                     : StorePosition(value: .integer(30), id: "x")
        let statements = try store.database.read { db in try listing.statements(db, after: position, limit: 10) }
        #expect(statements.count == (sort == .path ? 2 : 1), "the rest of the cursor's stem, then the stems after it")
        for (sql, values) in statements {
            let plan = try plan(store, sql, values)
            let index = switch (sort, group) {
            case (.taken, nil): "assets_by_taken"
            case (.taken, _): "assets_by_group_taken"
            case (.modified, nil): "assets_by_modified"
            case (.modified, _): "assets_by_group_modified"
            case (.path, nil): "assets_by_path"
            case (.path, _): "assets_by_group_path"
            }
            #expect(plan.contains("USING INDEX \(index) (") || plan.contains("USING COVERING INDEX \(index) ("), "\(plan)")
            #expect(!plan.contains("TEMP B-TREE FOR ORDER BY"), "no sort of the whole range\n\(plan)")
            #expect(!scansAssets(plan), "\(plan)")
        }
    }

    @Test func lookupsByIdentityIdAndSelectionUseTheirIndexes() async throws {
        let dir = try TemporaryDirectory()
        let store = try await store(dir)
        // The statement the lookup runs: stems first, it probed the identity index once per
        // stem, so a library of new paths (a root renamed) took minutes at 100,000 photos.
        let identity = try plan(store, StoreDatabase.indexedFilesSQL(where: StoreDatabase.identityCondition, join: .assetsFirst),
                                [.integer(1), .integer(1)])
        #expect(identity.split(separator: "\n").first == "SEARCH a USING INDEX assets_by_identity (inode=?)", "\(identity)")
        #expect(identity.contains("SEARCH f USING INTEGER PRIMARY KEY (rowid=?)"), "\(identity)")
        let sharing = try await store.read { try $0.indexedFiles(sharingInodeWith: [stamp(33)]) }
        #expect(sharing.map { $0.path.description } == ["/lib/3/33.jpg"])
        let selection = StoreSelection(groupKeys: ["A"], ids: [AssetID.generate()])
        let visible = try plan(store, """
            SELECT id FROM assets a WHERE a.group_id IN \(StoreSelection.groupIDs)
            UNION ALL SELECT id FROM assets a WHERE a.id IN \(StoreSelection.storedIDs)
            """, selection.values)
        #expect(visible.contains("USING COVERING INDEX assets_by_id (id=?)"), "\(visible)")
        #expect(visible.contains("assets_by_group_"), "\(visible)")
        #expect(!scansAssets(visible), "\(visible)")
        let newest = try plan(store, "SELECT taken_key, id FROM assets a WHERE group_id = ? ORDER BY taken_key DESC, id DESC LIMIT 1",
                              [.integer(1)])
        #expect(newest.contains("SEARCH a USING INDEX assets_by_group_taken (group_id=?)"), "\(newest)")
        await #expect(try store.read(as: .selection(selection)) { try $0.visibleSet()?.ids.count } == 25)
        let stems = try await store.read { try $0.indexedFiles(withPrefix: PathBytes("/lib/3/3")) }
            .map { $0.path.description }
        #expect(stems.sorted() == ["/lib/3/33.jpg", "/lib/3/38.jpg", "/lib/3/3.jpg"].sorted())
    }

    /// A limited app's count under a root (its Status) reads the selection's rows through their
    /// indexes, not every row under the root to test it against the selection.
    @Test func aLimitedCountUnderARootStartsFromTheSelection() async throws {
        let dir = try TemporaryDirectory()
        let store = try await store(dir)
        let selection = StoreSelection(groupKeys: ["A"], ids: [AssetID.generate()])
        let range = try store.database.read { db in try PathStems.range(db, prefix: Array("/lib/".utf8)).condition }
        let counted = try plan(store, StoreDatabase.selectionCountSQL(range: range.sql), range.values + selection.values)
        #expect(counted.split(separator: "\n").first == "MULTI-INDEX OR", "\(counted)")
        #expect(counted.contains("USING INDEX assets_by_id (id=?)"), "\(counted)")
        #expect(counted.contains("SEARCH f USING INTEGER PRIMARY KEY (rowid=?)"), "\(counted)")
        #expect(!scansAssets(counted), "\(counted)")
        await #expect(try store.read(as: .selection(selection)) { try $0.assetCount(under: PathBytes("/lib")) } == 25)
        await #expect(try store.read(as: .selection(selection)) { try $0.assetCount(under: PathBytes("/lib/3")) } == 5)
    }
}
