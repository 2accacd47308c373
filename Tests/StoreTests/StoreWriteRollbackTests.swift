import FileSystem
import Foundation
import PhotoTestSupport
import SQLite
import Testing
@testable import Store

/// A batch that fails leaves nothing behind, not even in what the writer remembers.
@Suite struct StoreWriteRollbackTests {
    private func photo(_ path: String, _ n: Int64) -> WriteBatch.Insert {
        var insert = insert(path, n, "Harbour")
        insert.content.make = "Maker"
        insert.content.model = "Model 7"
        return insert
    }

    /// The first batch adds a group, a camera and a stem, then fails (a trigger refuses its
    /// second photo) and rolls back; the next batch needs the same three again, and must add
    /// them anew rather than use numbers that were rolled back.
    @Test func aRolledBackBatchLeavesNoNumberBehind() async throws {
        let dir = try TemporaryDirectory()
        let store = try await openStore(dir)
        defer { withExtendedLifetime(dir) {} }
        let raw = try SQLiteConnection(path: dir.file("state/index.sqlite"), create: false)
        try raw.execute("""
            CREATE TRIGGER refuse AFTER INSERT ON assets WHEN NEW.name = CAST('refused.jpg' AS BLOB)
            BEGIN SELECT RAISE(ABORT, 'refused'); END
            """)
        var failing = WriteBatch()
        failing.inserts = [photo("/lib/harbour/a.jpg", 1), photo("/lib/harbour/refused.jpg", 2)]
        await #expect(throws: (any Error).self) { try await store.write { [failing] in try $0.apply(failing) } }
        await #expect(try store.read { try $0.totals() } == (assets: 0, groups: 0))
        #expect(try raw.integer("SELECT count(*) FROM cameras") == 0)
        #expect(try raw.integer("SELECT count(*) FROM folders") == 0)

        // The numbers the failed batch drew, taken by other rows: a stale one would now name the
        // wrong row (a group without photos goes at the end of the next batch; a stem in no use stays).
        try raw.execute("""
            INSERT INTO cameras(make, model) VALUES ('Other', 'Camera');
            INSERT INTO groups(key, name, count) VALUES ('Other', 'Other', 0);
            INSERT INTO folders(path) VALUES (CAST('/elsewhere/' AS BLOB));
            """)
        var batch = WriteBatch()
        batch.inserts = [photo("/lib/harbour/a.jpg", 1), photo("/lib/harbour/b.jpg", 3)]
        let batchChange = try await store.write { [batch] in try $0.apply(batch) }
        let change = try #require(batchChange)
        let assets = try await store.read { try $0.assets(ids: change.inserted) }
        #expect(assets.map(\.path).sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) }
            == [PathBytes("/lib/harbour/a.jpg"), PathBytes("/lib/harbour/b.jpg")])
        #expect(assets.allSatisfy { $0.content.make == "Maker" && $0.content.model == "Model 7" })
        #expect(assets.allSatisfy { $0.content.groupKey == "Harbour" })
        await #expect(try store.read { try $0.totals() } == (assets: 2, groups: 1))
    }
}
