import FileSystem
import SQLite
import TextFolding

/// The full-text index behind search: the FTS5 table `search_text` (trigram tokenizer), one
/// row per asset under the asset's rowid, indexing `SearchText.fields` of it (one column each,
/// so no trigram spans two fields); and
/// `search_terms`, the fts5vocab view of its terms, where short words are looked up.
///
/// It keeps neither the text (contentless: the writer gives the old text back to delete it,
/// computed again from the row) nor the positions of the terms (`detail = none`): a word is
/// looked up as all of its trigrams, and each photo found is then checked against its own text
/// (`SearchPlan`), so the index only has to find a superset. That takes a quarter of the room.
///
/// The store writer keeps it in step with `assets` in the same transaction as every insert,
/// update, move and removal, except during a bulk load (`BulkLoad`), which writes it at its end.
enum SearchIndex {
    /// The setting that marks the index for a rebuild at the next open.
    static let staleSetting = "search_text_stale"

    /// The tables. Case-sensitive, because `SearchText.fold` has already folded case and accents.
    static let tables = """
        CREATE VIRTUAL TABLE search_text USING fts5(
            description, name, make, model,
            tokenize = 'trigram case_sensitive 1', content = '', columnsize = 0, detail = none);
        CREATE VIRTUAL TABLE search_terms USING fts5vocab(search_text, row);
        """

    /// Indexes the text of the asset with this rowid, which has none yet.
    static func insert(_ db: SQLiteConnection, rowid: Int64, path: PathBytes, content: AssetContent) throws {
        try db.statement("INSERT INTO search_text(rowid, description, name, make, model) VALUES (?, ?, ?, ?, ?)")
            .bind([.integer(rowid)] + fields(path: path, content: content)).run()
    }

    /// Removes the text of the asset with this rowid, as it was indexed (from `path` and `content`).
    static func remove(_ db: SQLiteConnection, rowid: Int64, path: PathBytes, content: AssetContent) throws {
        try db.statement("""
            INSERT INTO search_text(search_text, rowid, description, name, make, model) VALUES ('delete', ?, ?, ?, ?, ?)
            """).bind([.integer(rowid)] + fields(path: path, content: content)).run()
    }

    private static func fields(path: PathBytes, content: AssetContent) -> [SQLiteValue] {
        SearchText.fields(description: content.description, path: path, make: content.make, model: content.model)
            .map { .text($0) }
    }

    static func document(path: PathBytes, content: AssetContent) -> String {
        SearchText.document(description: content.description, path: path, make: content.make, model: content.model)
    }

    /// Whether an asset's text changes between these two versions of it. A move to another
    /// folder under the same name leaves it as it was: the text holds the file name alone, and
    /// re-indexing every photo of a renamed folder was most of its writes.
    static func textChanges(from old: (path: PathBytes, content: AssetContent), to new: (path: PathBytes, content: AssetContent)) -> Bool {
        old.path.lastComponent != new.path.lastComponent || old.content.description != new.content.description
            || old.content.make != new.content.make || old.content.model != new.content.model
    }

    /// Marks the index for a rebuild at the next open.
    static func markStale(_ db: SQLiteConnection) throws {
        try db.statement("INSERT INTO settings(key, value) VALUES (?, '1') ON CONFLICT(key) DO NOTHING")
            .bind([.text(staleSetting)]).run()
    }

    /// The setting that names how the index's text was folded (`TextFolding.identity`).
    static let foldingSetting = "search_folding"

    /// Rebuilds the index from `assets` when it is marked stale or was folded by other rules (an
    /// older photod, another utf8proc's Unicode), in one transaction that also clears the mark
    /// and records today's folding; true when it rebuilt.
    @discardableResult
    static func rebuildIfNeeded(_ db: SQLiteConnection) throws -> Bool {
        let marker = try db.statement("SELECT value FROM settings WHERE key = ?")
        defer { marker.reset() }
        try marker.bind([.text(staleSetting)])
        let stale = try marker.step()
        marker.reset()
        try marker.bind([.text(foldingSetting)])
        let folding = try marker.step() ? marker.text(0) : nil
        guard stale || folding != TextFolding.identity else { return false }
        try db.transaction {
            try db.execute("INSERT INTO search_text(search_text) VALUES ('delete-all')")
            try fill(db, after: 0)
            try db.statement("DELETE FROM settings WHERE key = ?").bind([.text(staleSetting)]).run()
            try db.statement("""
                INSERT INTO settings(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value
                """).bind([.text(foldingSetting), .text(TextFolding.identity)]).run()
        }
        return true
    }

    /// One asset's search text, read and folded, ready to index under its rowid.
    struct Row: Sendable {
        var rowid: Int64
        var fields: [String?]
    }

    /// The search text of at most `limit` assets numbered above `number`, in rowid order.
    static func rows(_ db: SQLiteConnection, after number: Int64, limit: Int) throws -> [Row] {
        let rows = try db.statement("""
            SELECT a.number, f.path AS folder_path, a.name AS file_name, \(AssetRowDecoder.contentColumns)
            FROM assets a \(AssetRowDecoder.joins) WHERE a.number > ? ORDER BY a.number LIMIT ?
            """)
        defer { rows.reset() }
        try rows.bind([.integer(number), .integer(Int64(limit))])
        let (rowid, stem, name, content) = (try rows.column(named: "number"), try rows.column(named: "folder_path"),
                                            try rows.column(named: "file_name"), try ContentColumns(rows))
        var found: [Row] = []
        found.reserveCapacity(limit)
        while try rows.step() {
            let content = content.decode(rows)
            found.append(Row(rowid: rows.int64(rowid), fields: SearchText.fields(
                description: content.description, path: PathBytes(rows.blob(stem, followedBy: name)), make: content.make,
                model: content.model)))
        }
        return found
    }

    /// How much indexed text FTS5 gathers in memory before it writes a segment while the index
    /// is filled in bulk: 4 MiB holds the postings of about 100,000 photos, so a first index of
    /// that size writes one segment and the merge after has nothing to do (FTS5's own 1 MiB
    /// writes many and merges them after: bench/README.md, "Figures behind the code"). The pending
    /// text is written at every commit, so the live writer's small transactions never gather this much.
    static let bulkHashBytes = 4 << 20
    /// FTS5's default `automerge` (segments of a level merged as they accumulate), put back
    /// after a bulk fill, which turns it off: the one merge at the fill's end does that work once.
    static let defaultAutomerge = 4

    /// Indexes the text of every asset numbered above `number`, in rowid order, then merges the
    /// index into one segment (fewer lists for a query to merge). The rows come from `feed`
    /// when given (read ahead on another connection), else from `db` itself.
    static func fill(_ db: SQLiteConnection, after number: Int64, feed: SearchTextFeed? = nil) throws {
        try fill(db, rows: feed.map { feed in { try feed.next() } }
            ?? pages(after: number) { after, limit in try rows(db, after: after, limit: limit) })
    }

    /// The rows numbered above `number`, in rowid order, a chunk (`SearchTextFeed.chunkSize`)
    /// at each call and empty at the end, as `read(after, limit)` reads them.
    static func pages(after number: Int64, read: @escaping (_ after: Int64, _ limit: Int) throws -> [Row])
        -> () throws -> [Row] {
        var after = number
        return {
            let chunk = try read(after, SearchTextFeed.chunkSize)
            after = chunk.last?.rowid ?? after
            return chunk
        }
    }

    /// Indexes the rows `next` gives, chunk after chunk until an empty one, gathering up to
    /// `hashBytes` of text before each segment it writes, then merges the segments into one.
    static func fill(_ db: SQLiteConnection, hashBytes: Int = bulkHashBytes, rows next: () throws -> [Row]) throws {
        try db.execute("""
            INSERT INTO search_text(search_text, rank) VALUES ('hashsize', \(hashBytes));
            INSERT INTO search_text(search_text, rank) VALUES ('automerge', 0);
            """)
        let insert = try db.statement("INSERT INTO search_text(rowid, description, name, make, model) VALUES (?, ?, ?, ?, ?)")
        while case let chunk = try next(), !chunk.isEmpty {
            for row in chunk {
                insert.reset()
                try insert.bind([.integer(row.rowid)] + row.fields.map { .text($0) }).run()
            }
        }
        try db.execute("""
            INSERT INTO search_text(search_text) VALUES ('optimize');
            INSERT INTO search_text(search_text, rank) VALUES ('automerge', \(defaultAutomerge));
            """)
    }
}
