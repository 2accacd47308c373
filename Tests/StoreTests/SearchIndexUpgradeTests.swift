import FileSystem
import Foundation
import PhotoTestSupport
import SQLite
import Testing
import TextFolding
@testable import Store

/// The search index on an index made before it existed, and through the store's recovery paths.
@Suite struct SearchIndexUpgradeTests {
    /// An index as photod built it before search (schema 6, no incremental vacuum yet) holding
    /// three photos; returns its path.
    private func oldIndex(in dir: TemporaryDirectory) throws -> String {
        let path = dir.file("state/index.sqlite")
        try FileManager.default.createDirectory(atPath: dir.file("state"), withIntermediateDirectories: true)
        let db = try SQLiteConnection(path: path, create: true)
        for (index, sql) in Schema.migrations.prefix(6).enumerated() {
            try db.execute(sql)
            try db.execute("PRAGMA user_version = \(index + 1)")
        }
        try db.execute("""
            INSERT INTO groups(key, name, count) VALUES ('Café Crème', 'Café Crème', 2), ('Other', 'Other', 1);
            INSERT INTO assets(id, path, device, inode, size, mtime_ns, group_key, group_spelling, description,
              description_source, format, taken, taken_key, make, model, sidecar) VALUES
              ('aaaaaaaaaaaaaaaa', CAST('/lib/IMG_1.JPG' AS BLOB), 1, 1, 10, 1, 'Café Crème', 'Café Crème',
               'Café Crème', 'exif', 'jpeg', NULL, 1, 'Canon', 'Canon EOS 80D', 0),
              ('bbbbbbbbbbbbbbbb', CAST('/lib/IMG_2.JPG' AS BLOB), 1, 2, 10, 2, 'Café Crème', 'Café Crème',
               'Café Crème', 'exif', 'jpeg', NULL, 2, 'FUJIFILM', 'X-T3', 0),
              ('cccccccccccccccc', CAST('/lib/Zürich.jpg' AS BLOB), 1, 3, 10, 3, 'Other', 'Other',
               NULL, NULL, 'jpeg', NULL, 3, NULL, NULL, 0);
            """)
        return path
    }

    @Test func anIndexFromBeforeSearchIsFilledAtTheFirstOpenAndOnlyThen() async throws {
        let dir = try TemporaryDirectory()
        let path = try oldIndex(in: dir)
        do {
            let store = try Store(path: path)
            #expect(store.opening.convertedToIncrementalVacuum, "the old index was VACUUMed, and then filled")
            await #expect(try store.searchPaths("creme") == ["/lib/IMG_2.JPG", "/lib/IMG_1.JPG"])
            await #expect(try store.searchPaths("zurich") == ["/lib/Zürich.jpg"])
            await #expect(try store.searchPaths("t3 cafe") == ["/lib/IMG_2.JPG"])
            await #expect(try store.read { try $0.setting(SearchIndex.staleSetting) } == nil, "filled once: the mark is gone")
            // The writer keeps what the upgrade filled in step.
            var batch = WriteBatch()
            batch.removals = ["aaaaaaaaaaaaaaaa"]
            batch.inserts = [photo("/lib/new.jpg", 9, "Crème brûlée")]
            _ = try await store.write { [batch] in try $0.apply(batch) }
            await #expect(try store.searchPaths("creme") == ["/lib/new.jpg", "/lib/IMG_2.JPG"])
            await store.close()
        }
        // Opened again: nothing rebuilt (a rebuild would bring back nothing new, but costs a full
        // pass). A photo's text taken out of the index behind the store's back stays out.
        let db = try SQLiteConnection(path: path, create: false)
        let zurich = try #require(try db.integer("SELECT number FROM assets WHERE name = CAST('Zürich.jpg' AS BLOB)"))
        try db.statement("INSERT INTO search_text(search_text, rowid, name) VALUES ('delete', ?, ?)")
            .bind([.integer(zurich), .text(SearchText.fields(description: nil, path: PathBytes("/lib/Zürich.jpg"),
                                                              make: nil, model: nil)[1])]).run()
        let reopened = try Store(path: path)
        await #expect(try reopened.searchPaths("zurich").isEmpty)
        await #expect(try reopened.searchPaths("creme") == ["/lib/new.jpg", "/lib/IMG_2.JPG"])
    }

    /// An index of today's schema holding `photos`, closed again; returns its path.
    private func index(in dir: TemporaryDirectory, _ photos: [WriteBatch.Insert]) async throws -> String {
        let path = dir.file("state/index.sqlite")
        let store = try Store(path: path)
        var batch = WriteBatch()
        batch.inserts = photos
        _ = try await store.write { [batch] in try $0.apply(batch) }
        await store.close()
        return path
    }

    @Test func aMarkedIndexIsRebuiltFromTheAssetsAtTheNextOpen() async throws {
        let dir = try TemporaryDirectory()
        let path = try await index(in: dir, [photo("/lib/a.jpg", 1, "Lake"), photo("/lib/b.jpg", 2, "Sea")])
        let db = try SQLiteConnection(path: path, create: false)
        try db.execute("INSERT INTO search_text(search_text) VALUES ('delete-all')")
        await #expect(try Store(path: path).searchPaths("lake").isEmpty, "emptied")
        try SearchIndex.markStale(db)
        let store = try Store(path: path)
        await #expect(try store.searchPaths("jpg") == ["/lib/b.jpg", "/lib/a.jpg"])
        await #expect(try store.searchPaths("lake") == ["/lib/a.jpg"])
    }

    @Test func anIndexFoldedByOtherRulesIsRebuiltOnceAtTheNextOpen() async throws {
        let dir = try TemporaryDirectory()
        let path = try await index(in: dir, [photo("/lib/a.jpg", 1, "Lake Zürich")])
        do {
            // What a photod that folded by its own tables left: other terms, and no record of how.
            let db = try SQLiteConnection(path: path, create: false)
            try db.execute("INSERT INTO search_text(search_text) VALUES ('delete-all')")
            try db.statement("DELETE FROM settings WHERE key = ?").bind([.text(SearchIndex.foldingSetting)]).run()
        }
        let store = try Store(path: path)
        await #expect(try store.searchPaths("zurich") == ["/lib/a.jpg"], "rebuilt with today's folding")
        await #expect(try store.read { try $0.setting(SearchIndex.foldingSetting) } == TextFolding.identity)
        await store.close()
        // Once: a photo's text taken out behind the store's back stays out at the next open.
        let db = try SQLiteConnection(path: path, create: false)
        try db.execute("INSERT INTO search_text(search_text) VALUES ('delete-all')")
        await #expect(try Store(path: path).searchPaths("zurich").isEmpty)
    }

    @Test func aDamagedIndexMovedAsideGetsAFreshSearchIndexThatWorks() async throws {
        let dir = try TemporaryDirectory()
        let path = try await index(in: dir, [photo("/lib/a.jpg", 1, "Lake")])
        try Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }).write(to: URL(fileURLWithPath: path))
        let store = try Store(path: path)
        #expect(store.opening.brokenPath != nil)
        await #expect(try store.searchPaths("lake").isEmpty)
        var batch = WriteBatch()
        batch.inserts = [photo("/lib/a.jpg", 2, "Lake")]
        _ = try await store.write { [batch] in try $0.apply(batch) }
        await #expect(try store.searchPaths("lake") == ["/lib/a.jpg"])
    }
}
