import SQLite

/// The SQL of one search page: newest first, of one group or all, after a position.
///
/// Three shapes, so the statement cache holds a handful of statements whatever is searched (the
/// words travel as bound values: the FTS5 expression, rowids and LIKE patterns as JSON arrays):
/// - `rowids`: the assets the index matched, fetched by rowid and sorted — for few matches;
/// - `walk`: the taken-order index walked newest first, keeping assets among the matches — for
///   many, since it stops after a page instead of sorting them all;
/// - `scan`: the taken-order index walked testing each asset's text with LIKE — when the index
///   cannot help (one-character words), and for a limited app, from its own selection.
struct SearchPlan {
    let groupKey: String?
    let position: StorePosition?
    let limit: Int

    enum Shape {
        case rowids([Int64], likes: [String])
        case walk(expression: String, likes: [String])
        case scan(likes: [String], selection: StoreSelection?)
    }

    /// The page `shape` finds.
    func rows(_ db: SQLiteConnection, _ shape: Shape) throws -> [StoredAsset] {
        let (sql, values) = statement(shape)
        return try AssetColumns.rows(db, sql, values)
    }

    /// The SQL and its values for `shape`.
    func statement(_ shape: Shape) -> (sql: String, values: [SQLiteValue]) {
        let ordered = groupKey == nil ? "assets a INDEXED BY assets_by_taken" : "assets a INDEXED BY assets_by_group_taken"
        let from: String
        var conditions: [String] = []
        var values: [SQLiteValue] = []
        var likes: [String]
        switch shape {
        case .rowids(let rowids, let patterns):
            from = "assets a" + (patterns.isEmpty ? "" : " JOIN search_text s ON s.rowid = a.rowid")
            conditions.append("a.rowid IN (SELECT value FROM json_each(?))")
            values.append(.text("[" + rowids.map(String.init).joined(separator: ",") + "]"))
            likes = patterns
        case .walk(let expression, let patterns):
            from = ordered + (patterns.isEmpty ? "" : " JOIN search_text s ON s.rowid = a.rowid")
            conditions.append("a.rowid IN (SELECT rowid FROM search_text WHERE search_text MATCH ?)")
            values.append(.text(expression))
            likes = patterns
        case .scan(let patterns, let selection):
            // A selection picks its own way in (its groups and ids); the owner's scan walks in order.
            from = (selection == nil ? ordered : "assets a") + " JOIN search_text s ON s.rowid = a.rowid"
            if let selection {
                conditions.append(StoreSelection.condition)
                values += selection.values
            }
            likes = patterns
        }
        if let groupKey {
            conditions.append("a.group_key = ?")
            values.append(.text(groupKey))
        }
        if let position, case .integer(let key) = position.value {
            conditions.append("(a.taken_key, a.id) < (?, ?)")
            values += [.integer(key), .text(position.id)]
        }
        if !likes.isEmpty {
            // `+` keeps SQLite from handing the LIKE to FTS5, which would search the whole index
            // for it once per row instead of testing this row's text.
            conditions.append(#"NOT EXISTS (SELECT 1 FROM json_each(?) w WHERE +s.folded NOT LIKE w.value ESCAPE '\')"#)
            values.append(.text(StoreSelection.json(likes)))
        }
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let sql = "SELECT \(StoreDatabase.assetColumns) FROM \(from) JOIN groups g ON g.key = a.group_key "
            + "\(filter) ORDER BY a.taken_key DESC, a.id DESC LIMIT ?"
        values.append(.integer(Int64(limit)))
        return (sql, values)
    }
}
