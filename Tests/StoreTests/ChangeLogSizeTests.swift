import FileSystem
import Foundation
import PhotoTestSupport
import SQLite
import Testing
@testable import Store

/// The change log is bounded in bytes as well as in changes, and the file gives space back.
@Suite struct ChangeLogSizeTests {
    /// Bytes of payload the log holds, straight from the table.
    private func loggedBytes(_ store: Store) async throws -> Int64 {
        try store.database.read { db in try db.integer("SELECT coalesce(sum(length(CAST(payload AS BLOB))), 0) FROM changes") ?? 0 }
    }

    private func fileSize(_ path: String) async throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.size] as? NSNumber)?.intValue ?? 0
    }

    /// Inserts `count` photos in one batch; returns their ids.
    private func insertMany(_ store: Store, _ count: Int, from start: Int, folder: String) async throws -> [String] {
        var batch = WriteBatch()
        batch.inserts = (start..<start + count).map { n in
            insert("\(folder)/IMG_20261123_\(100_000 + n).jpg", Int64(n), "Beach")
        }
        let batchChange = try await store.write { [batch] in try $0.apply(batch) }
        return try #require(batchChange).inserted
    }

    @Test func theLogIsPrunedByBytesLongBeforeItsCount() async throws {
        let dir = try TemporaryDirectory()
        let store = try Store(path: dir.file("index.sqlite"), changeRetention: 10_000, changeRetentionBytes: 4096)
        defer { withExtendedLifetime(dir) {} }
        for round in 0..<20 {
            _ = try await insertMany(store, 30, from: round * 30, folder: "/lib")
        }
        // Each change lists 30 ids (about 600 bytes): 4 KiB holds only the newest few.
        await #expect(try loggedBytes(store) <= 4096)
        let oldest = try #require(try await store.read { try $0.oldestLoggedToken() })
        #expect(oldest > 10)
        await #expect(try store.read { try $0.currentToken() } == 20)
        // What is kept replays without a gap up to the newest: resuming from before `oldest`
        // is what a subscriber is told to resync for.
        await #expect(try store.read { try $0.changes(after: 0) }.map(\.token) == Array(oldest...20))
    }

    @Test func theNewestChangeIsKeptEvenWhenItAloneIsOverTheBudget() async throws {
        let dir = try TemporaryDirectory()
        let store = try Store(path: dir.file("index.sqlite"), changeRetentionBytes: 100)
        defer { withExtendedLifetime(dir) {} }
        _ = try await insertMany(store, 50, from: 0, folder: "/lib")
        _ = try await insertMany(store, 50, from: 50, folder: "/lib")
        await #expect(try store.read { try $0.oldestLoggedToken() } == 2)
        await #expect(try store.read { try $0.changes(after: 1) }.first?.inserted.count == 50)
    }

    @Test func theSizeKeptAcrossWritesMatchesTheLogAfterAReopen() async throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("index.sqlite")
        defer { withExtendedLifetime(dir) {} }
        do {
            let store = try Store(path: path, changeRetentionBytes: 3000)
            for round in 0..<6 { _ = try await insertMany(store, 20, from: round * 20, folder: "/lib") }
        }
        // A new process counts the log again from the stored sizes and goes on pruning from there.
        let reopened = try Store(path: path, changeRetentionBytes: 3000)
        for round in 6..<12 { _ = try await insertMany(reopened, 20, from: round * 20, folder: "/lib") }
        await #expect(try loggedBytes(reopened) <= 3000)
        await #expect(try loggedBytes(reopened) == reopened.database.write { db in try ChangeLog.totalBytes(db) })
    }

    /// Issue 11 item 5: renaming a large folder again and again grew the log (and the file)
    /// without bound, and pruning never gave the space back.
    @Test func aFloodOfFolderRenamesStaysBoundedAndTheFileShrinksAfterPruning() async throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("index.sqlite")
        defer { withExtendedLifetime(dir) {} }
        let folder = "/library/a-rather-long-folder-name-for-a-holiday"
        do {
            let store = try Store(path: path, changeRetentionBytes: 2 << 20)
            let ids = try await insertMany(store, 200, from: 0, folder: folder + "-0")
            for round in 1...40 {
                var rename = WriteBatch()
                rename.updates = ids.enumerated().map { n, id in
                    WriteBatch.Update(id: id, path: PathBytes("\(folder)-\(round)/IMG_20261123_\(100_000 + n).jpg"),
                                      stamp: stamp(Int64(n)), content: nil)
                }
                _ = try await store.write { [rename] in try $0.apply(rename) }
            }
            await #expect(try loggedBytes(store) <= 2 << 20)
        }
        // 40 renames of 200 photos are about 4 MB of log; 2 MiB are kept.
        let flooded = try await fileSize(path)
        #expect(flooded < 3 << 20)
        do {
            let store = try Store(path: path, changeRetentionBytes: 16 << 10)
            _ = try await insertMany(store, 1, from: 1000, folder: "/elsewhere")
            await #expect(try loggedBytes(store) <= 16 << 10)
        }
        let pruned = try await fileSize(path)
        #expect(pruned < flooded / 2)
    }

    @Test func anIndexFromBeforeMigrationSixIsConvertedOnceToGiveSpaceBack() async throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("index.sqlite")
        defer { withExtendedLifetime(dir) {} }
        let payload = String(decoding: try JSONEncoder().encode(CommittedChange(token: 0, inserted: ["a"])), as: UTF8.self)
        do {
            let old = try SQLiteConnection(path: path, create: true)
            try old.execute("PRAGMA journal_mode = WAL")
            for sql in Schema.migrations.prefix(4) { try old.execute(sql) }
            try old.execute("PRAGMA user_version = 4")
            try old.statement("INSERT INTO changes(committed_at_ns, payload) VALUES (1, ?)").bind([.text(payload)]).run()
        }
        let store = try Store(path: path)
        #expect(store.opening.convertedToIncrementalVacuum)
        #expect(try store.database.read { db in try db.integer("PRAGMA auto_vacuum") } == 2)
        #expect(try store.database.write { db in try ChangeLog.totalBytes(db) } == Int64(payload.utf8.count))
        await #expect(try store.read { try $0.changes(after: 0) }.first?.inserted == ["a"])
        let again = try Store(path: path)
        #expect(!again.opening.convertedToIncrementalVacuum)
    }
}
