import SQLite

/// A bulk load: many new photos written without the indexes only queries use, which are then
/// built once, sorted, instead of row by row (`CompactLayout.secondaryIndexes`, the search text).
///
/// The setting `bulk_load_above` holds the highest row number when it began: rows above it
/// have no search text yet. It is written in the transaction that drops the indexes and
/// deleted in the one that writes the search text (`finish`), so a crash in between leaves the
/// mark, and the next open finishes the load before anything reads the index. Until the end, every query still
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
        try start(db, empty: indexed == 0)
        return true
    }

    /// Begins a load into an index that holds no photo at all (a first index), however many
    /// files are coming: nothing is there for the query indexes to serve yet. Called before the
    /// first file is written, because a load begun after some were (when counting a large tree
    /// takes longer than reading its first files) keeps the id index: at 1,000,000 photos, one
    /// begun after 12,288 rows left the writer updating that index at random pages for every
    /// row, 5 GB written for a 287 MB index. True when a load is under way after.
    static func beginFirst(_ db: SQLiteConnection) throws -> Bool {
        if try isActive(db) { return true }
        guard try db.integer("SELECT EXISTS (SELECT 1 FROM assets)") == 0 else { return false }
        try start(db, empty: true)
        return true
    }

    /// Drops the indexes the load goes without and sets the mark, in one transaction. An
    /// `empty` index loses its id index too; one that holds photos keeps its identity index,
    /// because the reconcile looks every new file's inode up in it to find photos moved in from
    /// elsewhere (a root renamed while photod was down: without it, each lookup read the whole
    /// table, minutes at 100,000 photos).
    private static func start(_ db: SQLiteConnection, empty: Bool) throws {
        try db.transaction {
            let highest = try db.integer("SELECT max(number) FROM assets") ?? 0
            try CompactLayout.dropSecondaryIndexes(db, keeping: empty ? [] : [CompactLayout.identityIndexName])
            if empty { try db.execute("DROP INDEX IF EXISTS \(CompactLayout.idIndexName)") }
            try db.execute(FolderFingerprintTable.suspend)
            try db.statement("INSERT INTO settings(key, value) VALUES (?, ?)")
                .bind([.text(setting), .text(String(highest))]).run()
        }
    }

    /// Ends the load under way, if any: builds the indexes and the missing search text, and
    /// clears the mark with the search text (see `build`). True when there was one.
    ///
    /// The sorts behind CREATE INDEX run with `temp_store = FILE`: with the temporary store in
    /// memory SQLite's sorter never spills and holds every key of an index at once, while on file
    /// it sorts runs of at most the page cache's size in one buffer, merging them from unlinked
    /// temporary files, and is faster too (bench/README.md, "Figures behind the code"). Where no
    /// temporary file can be made (no writable temporary folder, a full one) it runs in memory.
    ///
    /// `helpers`, when given, start work on another thread and connection: for a first index, a
    /// build of the whole search index (`SearchIndexBuild`), which overlaps the query indexes'
    /// sorts and is then copied in; for another load, a feed of the search text of the rows above
    /// a number (`SearchTextFeed`), so reading and folding it overlaps the writer's inserts.
    @discardableResult
    static func finish(_ db: SQLiteConnection, helpers: Helpers? = nil) throws -> Bool {
        guard let above = try above(db) else { return false }
        do {
            try build(db, above: above, temporaryStore: "FILE", helpers: helpers)
        } catch let error as SQLiteError where error.isTemporaryFileFailure {
            try build(db, above: above, temporaryStore: "MEMORY", helpers: helpers)
        }
        // Merging the search index into one segment freed the old ones: give them back, and
        // the WAL's room (the store hands back the caches' memory: `Store.endBulkLoad()`).
        try? db.execute("PRAGMA incremental_vacuum")
        try? db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return true
    }

    /// The transactions that end a load above `above`, its sorts in `temporaryStore`; the
    /// writer's usual temporary store (memory: its own statements are small) is back after.
    ///
    /// The indexes, the search text and the mark's removal are one transaction, except for a
    /// first index whose search index was built on another thread: the writer commits the
    /// indexes, and a connection of the copy's own copies the search index in and removes the
    /// mark in a second one. FTS5 keeps what it read of a table's structure per connection and
    /// notices another connection's commit, not rows its own connection writes under it, so
    /// the copy must not be made on the connection that writes the table later. A crash
    /// between the two leaves the mark, and the next open fills the search text.
    private static func build(_ db: SQLiteConnection, above: Int64, temporaryStore: String, helpers: Helpers?) throws {
        try db.execute("PRAGMA temp_store = \(temporaryStore)")
        defer { try? db.execute("PRAGMA temp_store = MEMORY") }
        // The pages the load wrote are not what the sorts read: their memory goes first.
        try? db.execute("PRAGMA shrink_memory")
        // Started once the rows are all committed and the writer is here: the helpers' reads see
        // them as they are now, and nothing writes them before the load ends. A build works while
        // the indexes are sorted; a feed reads a few chunks ahead meanwhile, then keeps pace with
        // the search index's inserts.
        let build = above == 0 ? helpers?.buildSearch(above) : nil
        defer { build?.stop() }
        try db.transaction {
            let feed = build == nil ? helpers?.readAhead(above) : nil
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
            try db.execute(FolderFingerprintTable.createTriggers)
            if build == nil { try fillAndEnd(db, above: above, feed: feed) }
        }
        guard let build, let helpers else { return }
        // The sorts' pages are not what the copy writes: their memory goes before its does.
        try? db.execute("PRAGMA shrink_memory")
        if try !copyAndEnd(from: build, connect: helpers.connect) {
            try db.transaction { try fillAndEnd(db, above: above, feed: nil) }
        }
    }

    /// Fills the search text of the rows above `above` and removes the mark.
    private static func fillAndEnd(_ db: SQLiteConnection, above: Int64, feed: SearchTextFeed?) throws {
        try SearchIndex.fill(db, after: above, feed: feed)
        try db.statement("DELETE FROM settings WHERE key = ?").bind([.text(setting)]).run()
    }

    /// Copies a built search index in and removes the mark, in one transaction on a connection
    /// made for it; false when the build failed before its first row (nothing changed).
    private static func copyAndEnd(from build: SearchIndexBuild.Feed, connect: () throws -> SQLiteConnection) throws -> Bool {
        let copier = try connect()
        return try copier.transaction {
            guard try SearchIndexBuild.copy(from: build, into: copier) else { return false }
            try copier.statement("DELETE FROM settings WHERE key = ?").bind([.text(setting)]).run()
            return true
        }
    }

    /// Work a load's end starts on another thread and connection (`finish`).
    struct Helpers: Sendable {
        /// Starts a feed of the search text of the rows above a number.
        var readAhead: @Sendable (_ above: Int64) -> SearchTextFeed
        /// Starts a build of the search index of the rows above a number.
        var buildSearch: @Sendable (_ above: Int64) -> SearchIndexBuild.Feed
        /// Opens another write connection to the index, for the copy of a built search index.
        var connect: @Sendable () throws -> SQLiteConnection
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

// The indexer begins a bulk load before writing many new files (`store.write { try
// $0.beginBulkLoad(adding: count) }`) and calls `endBulkLoad()` after, before it reports the
// library ready.
extension StoreDatabase {
    /// Begins a bulk load when `count` new files are about to be written and that is worth it
    /// (an empty index, or one they at least double): the indexes only queries use are dropped
    /// until `Store.endBulkLoad()`. True when a bulk load is under way; every query stays right meanwhile.
    public func beginBulkLoad(adding count: Int) throws -> Bool {
        try write { try BulkLoad.begin($0, adding: count) }
    }

    /// Begins a bulk load when the index holds no photo at all (a first index), before anything
    /// is written, whatever the number of files to come. True when a bulk load is under way.
    public func beginFirstIndex() throws -> Bool {
        try write { try BulkLoad.beginFirst($0) }
    }
}

extension Store {
    /// Ends a bulk load: builds its indexes and search text once, with the reader threads'
    /// help, then hands back the page caches' memory. A load a crash interrupted is ended when
    /// the index is next opened.
    nonisolated(nonsending) public func endBulkLoad() async throws {
        let helpers = BulkLoad.Helpers(readAhead: { [self] in searchTextFeed(above: $0) },
                                       buildSearch: { [self] in searchIndexBuild(above: $0) },
                                       connect: { [self] in try database.copyConnection() })
        try await write { database in
            try database.write { _ = try BulkLoad.finish($0, helpers: helpers) }
            database.releaseMemory()
        }
    }
}
