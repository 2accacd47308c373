import Foundation
import PhotoTestSupport
import SQLite
import Testing
@testable import Store

/// The write-ahead log is copied back by a checkpoint off the writer's path, never inside a commit.
@Suite struct LogCheckpointTests {
    /// Commits `count` transactions of 64 KiB each (16 pages of 4 KiB) on `db`.
    private static func fill(_ db: SQLiteConnection, commits count: Int) throws {
        try db.execute("CREATE TABLE IF NOT EXISTS filler(b BLOB)")
        for _ in 0..<count {
            try db.transaction { try db.execute("INSERT INTO filler VALUES (randomblob(65536))") }
        }
    }

    private static func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? -1
    }

    /// A connection whose log is observed reports its size after each commit, and no commit
    /// copies the log back: past SQLite's 1,000-page checkpoint the database file has not grown.
    @Test func anObservedConnectionNeverCheckpointsInACommit() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("index.sqlite")
        let db = try SQLiteConnection(path: path, create: true)
        try db.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL")
        let log = WriteAheadLogSize()
        db.observeWriteAheadLog(log)
        try Self.fill(db, commits: 80)
        #expect(log.current > 1_200, "the log holds every commit: \(log.current) pages")
        #expect(Self.size(path) < 64 * 1024, "nothing was copied into the database: \(Self.size(path)) bytes")
        #expect(Self.size(path + "-wal") > 1_200 * 4096)
    }

    /// The store's writes past the threshold are checkpointed on a reader thread: the database
    /// file takes the rows while the writer goes on.
    @Test func theStoreCheckpointsTheLogOffTheWriter() async throws {
        let dir = try TemporaryDirectory()
        let store = try await openStore(dir)
        let path = dir.file("state/index.sqlite")
        let before = Self.size(path)
        for _ in 0..<8 {
            try await store.write { database in try database.write { db in try Self.fill(db, commits: 10) } }
        }
        #expect(await eventually { store.database.checkpoints.finished.load(ordering: .relaxed) > 0 })
        #expect(await eventually { Self.size(path) > before + 2 << 20 }, "the checkpoint copied the log into the file")
        // The log stays bounded: a write past the threshold starts the next checkpoint, and once
        // one has copied the whole log the writer's next commit starts it over and shrinks it to
        // the index's limit, as it did after a checkpoint inside a commit. (When that happens
        // depends on the threads, so each probe writes once more.)
        #expect(await eventually {
            try? await store.write { database in try database.write { db in try Self.fill(db, commits: 1) } }
            return Self.size(path + "-wal") <= StoreOpener.walSizeLimit
        }, "the log was \(Self.size(path + "-wal")) bytes")
        await store.close()
    }

    /// The writer's commit itself starts the checkpoint, whichever way in made it: a commit on
    /// the writer's connection outside `Store.write` (a migration, a repair) is covered too.
    @Test func aCommitOutsideTheStoresWritesStartsACheckpoint() async throws {
        let dir = try TemporaryDirectory()
        let store = try await openStore(dir)
        try store.database.writer.withLock { db in try Self.fill(db, commits: 80) }
        #expect(await eventually { store.database.checkpoints.finished.load(ordering: .relaxed) > 0 })
        await store.close()
    }
}
