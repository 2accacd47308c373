import SQLite

/// A first index's search index, built on a second core while the writer builds the query
/// indexes, then copied in on a connection of the copy's own.
///
/// At a bulk load's end the writer builds seven indexes by sorting, one after the other, on its
/// one connection while the other core has nothing to do, and filling the search index after
/// that took about as long again (bench/README.md, "Figures behind the code"). So the builder fills an FTS5 table of the same
/// definition in a private temporary database of its own (`SQLiteConnection(path: "")`, which
/// SQLite deletes when it closes), reading the photos' text from the index through a reader
/// connection, and merges it into one segment. That table's storage, the rows of its shadow
/// tables `search_text_data` and `search_text_idx`, is then copied into the index's own, empty,
/// search table, in the transaction that ends the load, on another connection than the writer's
/// (`BulkLoad`: FTS5 keeps a table's structure per connection). The two tables are made by the
/// same statement (`SearchIndex.tables`), so their storage is the same format; FTS5 reads the
/// structure it finds there, and the copy has it do so in that transaction (`copy`), so a copy
/// it could not read would fail the transaction rather than be committed.
///
/// Only a load into an empty search index copies (a first index); any other fills it on the
/// writer (`SearchIndex.fill`). A build that fails before handing over its first row (no room for
/// a temporary file) leaves the writer to fill the index itself.
enum SearchIndexBuild {
    /// One row of an FTS5 table's storage.
    enum StoredRow: Sendable, Equatable {
        /// A row of `search_text_data`: a leaf or structure record.
        case data(id: Int64, block: [UInt8])
        /// A row of `search_text_idx`: where a segment's page starts with a term.
        case idx(segid: Int64, term: [UInt8], pgno: Int64)
    }

    /// The builder's rows, a few chunks ahead of the writer that copies them.
    typealias Feed = ChunkFeed<StoredRow>

    /// Rows per chunk handed over: data blocks are about a page each, so a chunk is 256 KiB.
    static let chunkSize = 64
    /// The builder's memory, beside the writer's sorts at the load's end: its page cache, and the
    /// text FTS5 gathers before writing a segment, half the writer's own bulk fill's: with as much,
    /// a first index of 1,000,000 photos passed photod's 64 MiB budget (bench/README.md, "Figures
    /// behind the code"); the extra segments are merged on the builder's core, beside the writer's sorts.
    static let scratchCacheKiB = 1024
    static let hashBytes = 2 << 20

    /// Runs on the builder's thread: builds the search index of the rows numbered above `number`,
    /// which `read(after, limit)` reads from the index in rowid order, and hands its storage
    /// over through `feed`, then an empty chunk. An error ends the feed.
    static func build(into feed: Feed, after number: Int64,
                      read: @escaping (_ after: Int64, _ limit: Int) throws -> [SearchIndex.Row]) {
        let scratch: SQLiteConnection
        do {
            scratch = try SQLiteConnection(path: "", create: true)
            // A scratch table: no journal, no syncs; pages beyond its small cache go to its file.
            try scratch.execute("""
                PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -\(scratchCacheKiB);
                \(SearchIndex.tables)
                """)
            // One transaction: FTS5 writes what it gathered at every commit, and a commit per row
            // made 100,000 segments (4 s where this takes 0.3).
            try scratch.transaction {
                try SearchIndex.fill(scratch, hashBytes: hashBytes, rows: SearchIndex.pages(after: number, read: read))
            }
        } catch {
            feed.fail(error)
            return
        }
        let sources: [Rows]
        do {
            sources = [
                try Rows(scratch, "SELECT id, block FROM search_text_data ORDER BY id") {
                    .data(id: $0.int64(0), block: $0.blob(1))
                },
                try Rows(scratch, "SELECT segid, term, pgno FROM search_text_idx ORDER BY segid, term") {
                    .idx(segid: $0.int64(0), term: $0.blob(1), pgno: $0.int64(2))
                },
            ]
        } catch {
            feed.fail(error)
            return
        }
        var current = 0
        // Chunk after chunk of the data rows, then of the idx rows; empty (the end) after both.
        while feed.hand({
            while current < sources.count {
                let rows = try sources[current].next(chunkSize)
                if !rows.isEmpty { return rows }
                current += 1
            }
            return []
        }) {}
    }

    /// Copies the storage `feed` hands over into `db`'s search table, which must be empty; true
    /// when it did, false when the build failed before its first row (nothing was copied).
    static func copy(from feed: Feed, into db: SQLiteConnection) throws -> Bool {
        guard try db.integer("SELECT count(*) FROM search_text_idx") == 0 else { return false }
        var chunk: [StoredRow]
        do {
            chunk = try feed.next()
        } catch {
            return false
        }
        try db.execute("DELETE FROM search_text_data; DELETE FROM search_text_idx")
        let data = try db.statement("INSERT INTO search_text_data(id, block) VALUES (?, ?)")
        let idx = try db.statement("INSERT INTO search_text_idx(segid, term, pgno) VALUES (?, ?, ?)")
        while !chunk.isEmpty {
            for row in chunk {
                switch row {
                case .data(let id, let block):
                    data.reset()
                    try data.bind([.integer(id), .blob(block)]).run()
                case .idx(let segid, let term, let pgno):
                    idx.reset()
                    try idx.bind([.integer(segid), .blob(term), .integer(pgno)]).run()
                }
            }
            chunk = try feed.next()
        }
        // FTS5 reads the structure it now holds when it writes its settings: a copy it cannot
        // read fails here, inside the transaction.
        try db.execute("INSERT INTO search_text(search_text, rank) VALUES ('automerge', \(SearchIndex.defaultAutomerge))")
        return true
    }

    /// A query on the scratch table read a chunk at a time.
    private final class Rows {
        private let statement: SQLiteStatement
        private let make: (SQLiteStatement) -> StoredRow
        /// Set once the query has no more rows: a finished statement stepped again starts over.
        private var done = false

        init(_ db: SQLiteConnection, _ sql: String, make: @escaping (SQLiteStatement) -> StoredRow) throws {
            statement = try db.statement(sql)
            self.make = make
        }

        /// Up to `limit` more rows; empty when there are no more.
        func next(_ limit: Int) throws -> [StoredRow] {
            var rows: [StoredRow] = []
            while !done, rows.count < limit {
                guard try statement.step() else {
                    done = true
                    statement.reset()
                    break
                }
                rows.append(make(statement))
            }
            return rows
        }
    }
}
