import SQLite

/// The full-text index behind search: the FTS5 table `search_text` (trigram tokenizer), one
/// row per asset under the asset's rowid, holding `SearchText.document` of it; and
/// `search_terms`, the fts5vocab view of its terms, where short words are looked up.
///
/// The store writer keeps it in step with `assets` in the same transaction as every insert,
/// update, move and removal, so a search never sees a photo the index does not have.
enum SearchIndex {
    /// The setting that marks the index for a rebuild at the next open: set by the migration
    /// that creates it (an index from before search existed has photos but no text for them).
    static let staleSetting = "search_text_stale"

    /// Writes the text of the asset with this rowid, replacing what it had.
    static func write(_ db: SQLiteConnection, rowid: Int64, path: [UInt8], content: AssetContent) throws {
        let text = SearchText.document(description: content.description, path: path, make: content.make,
                                       model: content.model)
        try db.statement("INSERT OR REPLACE INTO search_text(rowid, folded) VALUES (?, ?)")
            .bind([.integer(rowid), .text(text)]).run()
    }

    /// Removes the text of the asset with this rowid.
    static func remove(_ db: SQLiteConnection, rowid: Int64) throws {
        try db.statement("DELETE FROM search_text WHERE rowid = ?").bind([.integer(rowid)]).run()
    }

    /// Whether an asset's text changes between these two versions of it.
    static func textChanges(from old: (path: [UInt8], content: AssetContent), to new: (path: [UInt8], content: AssetContent)) -> Bool {
        old.path != new.path || old.content.description != new.content.description
            || old.content.make != new.content.make || old.content.model != new.content.model
    }

    /// Marks the index for a rebuild: after a VACUUM, which may give the assets new rowids.
    static func markStale(_ db: SQLiteConnection) throws {
        try db.statement("INSERT INTO settings(key, value) VALUES (?, '1') ON CONFLICT(key) DO NOTHING")
            .bind([.text(staleSetting)]).run()
    }

    /// Rebuilds the index from `assets` when it is marked stale, in one transaction that also
    /// clears the mark; true when it rebuilt.
    @discardableResult
    static func rebuildIfNeeded(_ db: SQLiteConnection) throws -> Bool {
        let marker = try db.statement("SELECT 1 FROM settings WHERE key = ?")
        try marker.bind([.text(staleSetting)])
        let stale = try marker.step()
        marker.reset()
        guard stale else { return false }
        try db.transaction {
            try db.execute("DELETE FROM search_text")
            let rows = try db.statement("SELECT rowid, path, \(AssetRowDecoder.contentColumns) FROM assets")
            let (rowid, path, content) = (try rows.column(named: "rowid"), try rows.column(named: "path"),
                                          try ContentColumns(rows))
            while try rows.step() {
                try write(db, rowid: rows.int64(rowid), path: rows.blob(path), content: content.decode(rows))
            }
            rows.reset()
            try db.statement("DELETE FROM settings WHERE key = ?").bind([.text(staleSetting)]).run()
        }
        // One segment instead of one per thousand rows or so: queries merge fewer lists.
        try db.execute("INSERT INTO search_text(search_text) VALUES ('optimize')")
        return true
    }
}
