import SQLite

/// A bulk load: many new photos written without the indexes only queries use, which are then
/// built once, sorted, instead of row by row (`CompactLayout.secondaryIndexes`, the search text).
///
/// The setting `bulk_load_above` holds the highest row number when it began: rows above it
/// have no search text yet. It is written in the transaction that drops the indexes and
/// deleted in the one that builds them, so a crash in between leaves the mark, and the next
/// open finishes the load before anything reads the index. Until the end, every query still
/// answers right: listings sort without their indexes and search reads every photo.
enum BulkLoad {
    static let setting = "bulk_load_above"

    /// New files worth a bulk load: at least this many, and at least as many as are indexed.
    static let minimumFiles = 1000

    /// The row number the load began above; nil when none is under way.
    static func above(_ db: SQLiteConnection) throws -> Int64? {
        let statement = try db.statement("SELECT value FROM settings WHERE key = ?")
        defer { statement.reset() }
        try statement.bind([.text(setting)])
        guard try statement.step(), let value = statement.text(0) else { return nil }
        return Int64(value) ?? 0
    }

    /// Whether a bulk load is under way.
    static func isActive(_ db: SQLiteConnection) throws -> Bool { try above(db) != nil }

    /// Rows numbered above this have no search text (`Int64.max` outside a bulk load).
    static func searchTextAbove(_ db: SQLiteConnection) throws -> Int64 { try above(db) ?? .max }

    /// Begins a load of `count` new files when that is worth it; true when one is under way after.
    static func begin(_ db: SQLiteConnection, adding count: Int) throws -> Bool {
        if try isActive(db) { return true }
        let indexed = try db.integer("SELECT count(*) FROM assets") ?? 0
        guard count >= max(minimumFiles, Int(indexed)) else { return false }
        try db.transaction {
            let highest = try db.integer("SELECT max(number) FROM assets") ?? 0
            try CompactLayout.dropSecondaryIndexes(db)
            try db.statement("INSERT INTO settings(key, value) VALUES (?, ?)")
                .bind([.text(setting), .text(String(highest))]).run()
        }
        return true
    }

    /// Ends the load under way, if any: builds the indexes and the missing search text, in one
    /// transaction that also clears the mark. True when there was one.
    ///
    /// The sorts behind CREATE INDEX run with `temp_store = FILE`: with the temporary store in
    /// memory SQLite's sorter never spills and holds every key of an index at once (148 MiB at
    /// 1,000,000 photos), while on file it sorts runs of at most the page cache's size in one
    /// buffer, merging them from unlinked temporary files, and is faster too (six indexes at
    /// 100,000 photos: 0.32-0.38 s in memory, 0.26-0.30 s on file, sqlite3 CLI). Where no
    /// temporary file can be made (no writable temporary folder, a full one) it runs in memory.
    ///
    /// `readAhead`, when given, starts a feed of the search text of the rows above a number
    /// (`SearchTextFeed`, on another thread and connection), so reading and folding it overlaps
    /// the writer's work.
    @discardableResult
    static func finish(_ db: SQLiteConnection, readAhead: ((_ above: Int64) -> SearchTextFeed)? = nil) throws -> Bool {
        guard let above = try above(db) else { return false }
        do {
            try build(db, above: above, temporaryStore: "FILE", readAhead: readAhead)
        } catch let error as SQLiteError where error.isTemporaryFileFailure {
            try build(db, above: above, temporaryStore: "MEMORY", readAhead: readAhead)
        }
        // Merging the search index into one segment freed the old ones: give them back, and
        // the WAL's room (the store hands back the caches' memory: `Store.endBulkLoad()`).
        try? db.execute("PRAGMA incremental_vacuum")
        try? db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return true
    }

    /// The transaction that ends a load above `above`, its sorts in `temporaryStore`; the
    /// writer's usual temporary store (memory: its own statements are small) is back after.
    private static func build(_ db: SQLiteConnection, above: Int64, temporaryStore: String,
                              readAhead: ((Int64) -> SearchTextFeed)?) throws {
        try db.execute("PRAGMA temp_store = \(temporaryStore)")
        defer { try? db.execute("PRAGMA temp_store = MEMORY") }
        try db.transaction {
            // Started once the transaction holds the write lock: the feed's reads see the rows as they
            // are now, and nothing writes them before the transaction ends. It reads a few chunks
            // ahead while the indexes build, then keeps pace with the search index's inserts.
            let feed = readAhead?(above)
            defer { feed?.stop() }
            try CompactLayout.createSecondaryIndexes(db)
            // The unique indexes took their rows in random (id) or walk order: rebuilt sorted,
            // their pages are full.
            try db.execute("REINDEX assets_by_id; REINDEX assets_by_path")
            try SearchIndex.fill(db, after: above, feed: feed)
            try db.statement("DELETE FROM settings WHERE key = ?").bind([.text(setting)]).run()
        }
    }
}

extension SQLiteError {
    /// True when SQLite could not make or write a temporary file: no temporary folder it may
    /// write (SQLITE_IOERR_GETTEMPPATH), one it cannot open (SQLITE_CANTOPEN), or a full one
    /// (SQLITE_FULL, or an I/O error).
    var isTemporaryFileFailure: Bool { isOutOfSpace || code & 0xFF == 14 }
}
