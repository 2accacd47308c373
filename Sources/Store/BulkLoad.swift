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
    ///
    /// A load into an empty index (a first index) also goes without the unique index on ids:
    /// it only inserts, so nothing looks a row up by id, and ids are drawn at random, so each
    /// insert would otherwise update that index at a random page (a third of the writer's time
    /// at 100,000 photos). The index is made at the end; ids are 80 random bits, but should two
    /// ever be equal, the later row draws a new one then (`makeIDIndex`).
    static func begin(_ db: SQLiteConnection, adding count: Int) throws -> Bool {
        if try isActive(db) { return true }
        let indexed = try db.integer("SELECT count(*) FROM assets") ?? 0
        guard count >= max(minimumFiles, Int(indexed)) else { return false }
        try db.transaction {
            let highest = try db.integer("SELECT max(number) FROM assets") ?? 0
            try CompactLayout.dropSecondaryIndexes(db)
            if indexed == 0 { try db.execute("DROP INDEX IF EXISTS \(CompactLayout.idIndexName)") }
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
            if try db.integer("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = '\(CompactLayout.idIndexName)'") == 1 {
                try db.execute("REINDEX \(CompactLayout.idIndexName)")
            } else {
                try makeIDIndex(db)
            }
            try db.execute("REINDEX assets_by_path")
            try SearchIndex.fill(db, after: above, feed: feed)
            try db.statement("DELETE FROM settings WHERE key = ?").bind([.text(setting)]).run()
        }
    }
}

extension BulkLoad {
    /// Makes the unique index on ids a first index went without. Two equal ids (80 random bits
    /// each: at 1,000,000 photos, odds of about 1 in 10^12) would refuse it: each row after the
    /// first with such an id then draws a new one, as an insert that met a taken id does, and
    /// the index is made again.
    static func makeIDIndex(_ db: SQLiteConnection) throws {
        let create = "CREATE UNIQUE INDEX \(CompactLayout.idIndexName) ON assets(id)"
        var attempts = 0
        while true {
            attempts += 1
            do {
                try db.execute(create)
                return
            } catch {
                guard error.isConstraintViolation, attempts < 3 else { throw error }
            }
            try redrawRepeatedIDs(db)
        }
    }

    /// Gives every row whose id an earlier row already has a new id.
    private static func redrawRepeatedIDs(_ db: SQLiteConnection) throws {
        let repeated = try db.statement("""
            SELECT a.number FROM assets a
            JOIN (SELECT id, min(number) AS first FROM assets GROUP BY id HAVING count(*) > 1) d
              ON a.id = d.id AND a.number > d.first
            """)
        var numbers: [Int64] = []
        while try repeated.step() { numbers.append(repeated.int64(0)) }
        repeated.reset()
        var ids = AssetID.Source()
        for number in numbers {
            try db.statement("UPDATE assets SET id = ? WHERE number = ?")
                .bind([.blob(ids.next().bytes), .integer(number)]).run()
        }
    }
}

extension SQLiteError {
    /// True when SQLite could not make or write a temporary file: no temporary folder it may
    /// write (SQLITE_IOERR_GETTEMPPATH), one it cannot open (SQLITE_CANTOPEN), or a full one
    /// (SQLITE_FULL, or an I/O error).
    var isTemporaryFileFailure: Bool { isOutOfSpace || code & 0xFF == 14 }
}
