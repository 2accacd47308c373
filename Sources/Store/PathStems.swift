import FileSystem
import SQLite

/// Paths stored as a stem and the rest: `folders.path` is a folder path ending in "/", and an
/// asset's path is its stem's path followed by `assets.name`.
///
/// No stem in use is a prefix of another. So at most one stem is a prefix of any path, the
/// greatest stem not above it, and ordering rows by (stem path, name) orders them by path,
/// byte for byte: two paths with different stems differ inside the shorter stem.
///
/// A new path takes its parent folder as stem, unless a stem already holds it; a stem deeper
/// than the new one is merged into it (its rows' names grow by the folders between). A stem is
/// deleted with its last row, so the table holds exactly the stems in use.
enum PathStems {
    /// The stem a file at `path` would take: its parent folder, with its "/" (empty when there is none).
    static func parent(of path: [UInt8]) -> [UInt8] {
        PathBytes(path).parent?.folderPrefix.bytes ?? []
    }

    /// The first byte string after every string that begins with `prefix`; nil when there is none.
    static func upperBound(of prefix: [UInt8]) -> [UInt8]? {
        var high = prefix
        while let last = high.popLast() {
            if last < 0xFF {
                high.append(last + 1)
                return high
            }
        }
        return nil
    }

    /// The stem holding `path` (its id and path) and the rest of the path; nil when none does.
    static func find(_ db: SQLiteConnection, _ path: [UInt8]) throws -> (folder: Int64, stem: [UInt8], name: [UInt8])? {
        let statement = try db.statement("SELECT id, path FROM folders WHERE path <= ? ORDER BY path DESC LIMIT 1")
        defer { statement.reset() }
        try statement.bind([.blob(path)])
        guard try statement.step() else { return nil }
        let stem = statement.blob(1)
        guard stem.count <= path.count, path.starts(with: stem) else { return nil }
        return (statement.int64(0), stem, Array(path[stem.count...]))
    }

    /// The stem for `path` and the rest, making (and merging) stems as needed. Writer only.
    static func place(_ db: SQLiteConnection, _ path: [UInt8]) throws -> (folder: Int64, name: [UInt8]) {
        if let found = try find(db, path) { return (found.folder, found.name) }
        let stem = parent(of: path)
        try db.statement("INSERT INTO folders(path) VALUES (?)").bind([.blob(stem)]).run()
        let folder = db.lastInsertRowID
        // Deeper stems begin with the new one: their rows move under it.
        let deeper = try db.statement(
            "SELECT id, path FROM folders WHERE path > ?1 AND (?2 IS NULL OR path < ?2) AND id != ?3")
        try deeper.bind([.blob(stem), upperBound(of: stem).map { .blob($0) } ?? .null, .integer(folder)])
        var merged: [(Int64, [UInt8])] = []
        while try deeper.step() { merged.append((deeper.int64(0), Array(deeper.blob(1)[stem.count...]))) }
        deeper.reset()
        for (old, between) in merged {
            try db.statement("UPDATE assets SET folder = ?, name = CAST(? || name AS BLOB) WHERE folder = ?")
                .bind([.integer(folder), .blob(between), .integer(old)]).run()
            try db.statement("DELETE FROM folders WHERE id = ?").bind([.integer(old)]).run()
        }
        return (folder, Array(path[stem.count...]))
    }

    /// Deletes the stem when no row uses it any more. Writer only.
    static func release(_ db: SQLiteConnection, folder: Int64) throws {
        try db.statement("DELETE FROM folders WHERE id = ?1 AND NOT EXISTS (SELECT 1 FROM assets WHERE folder = ?1)")
            .bind([.integer(folder)]).run()
    }

    /// Where the paths beginning with `prefix` are: the rows of one stem whose name lies in a
    /// range, or every row of the stems in a range.
    enum Range {
        case names(folder: Int64, from: [UInt8], below: [UInt8]?)
        case stems(from: [UInt8], below: [UInt8]?)

        /// The SQL condition on `folders f` and `assets a`, and its values (a range each index can use).
        var condition: (sql: String, values: [SQLiteValue]) {
            switch self {
            case .names(let folder, let low, let high):
                let names = PathStems.between("a.name", from: low, below: high)
                return ("f.id = ? AND " + names.sql, [.integer(folder)] + names.values)
            case .stems(let low, let high):
                return PathStems.between("f.path", from: low, below: high)
            }
        }
    }

    /// The SQL condition that the blob `column` lies from `low` up to, not including, `high`
    /// (nil: no bound), and its values.
    static func between(_ column: String, from low: [UInt8], below high: [UInt8]?) -> (sql: String, values: [SQLiteValue]) {
        guard let high else { return ("\(column) >= ?", [.blob(low)]) }
        return ("\(column) >= ? AND \(column) < ?", [.blob(low), .blob(high)])
    }

    /// Where the paths after `cursor` (before it, `descending`) are, in path order: the rest of
    /// the stem holding the cursor, then the stems after it; or, when no stem holds it, the
    /// stems after it. Each part a condition on `folders f` and `assets a`, with its values.
    static func after(_ db: SQLiteConnection, cursor: [UInt8],
                      descending: Bool = false) throws -> [(conditions: [String], values: [SQLiteValue])] {
        let after = descending ? "<" : ">"
        guard let held = try find(db, cursor) else { return [(["f.path \(after) ?"], [.blob(cursor)])] }
        return [(["f.id = ?", "a.name \(after) ?"], [.integer(held.folder), .blob(held.name)]),
                (["f.path \(after) ?"], [.blob(held.stem)])]
    }

    /// The range of paths beginning with `prefix`.
    static func range(_ db: SQLiteConnection, prefix: [UInt8]) throws -> Range {
        if let found = try find(db, prefix), found.stem.count < prefix.count {
            // A stem holds the prefix: no other stem begins with it (stems are no prefix of each other).
            return .names(folder: found.folder, from: found.name, below: upperBound(of: found.name))
        }
        return .stems(from: prefix, below: upperBound(of: prefix))
    }
}
