import FileSystem
import SQLite

// The index's files in path order, a page at a time: a reconcile compares them with a walk of
// the disk in the same order, so neither list is ever held whole (a million photos would be
// hundreds of megabytes of paths).
extension StoreDatabase {
    /// Up to `limit` indexed files under `root`, in path (byte) order: after the path `after`,
    /// else from the path `from` (a range of a walk split in parts), else from the first.
    /// `skippingStems`: the rows of these stems (`stems(under:)`) are left out.
    public func indexedFiles(under root: PathBytes, from: PathBytes? = nil, after: PathBytes?, limit: Int,
                             skippingStems: [Int64] = []) throws -> [IndexedFile] {
        try read { db in
            var range = try PathStems.range(db, prefix: root.folderPrefix.bytes).condition
            if !skippingStems.isEmpty {
                // One JSON array bound to one parameter: the statement's text stays the same.
                range.sql += " AND f.id NOT IN (SELECT value FROM json_each(?))"
                range.values.append(.text("[" + skippingStems.map(String.init).joined(separator: ",") + "]"))
            }
            // Stem then name is path order (`PathStems`): the rest of the cursor's stem, then
            // the stems after it, each a range on the path index.
            let parts = try after.map { try PathStems.after(db, cursor: $0.bytes) }
                ?? from.map { try Self.from(db, $0) } ?? [([], [])]
            var files: [IndexedFile] = []
            for part in parts where files.count < limit {
                let rows = try Self.indexedFiles(db, where: ([range.sql] + part.conditions).joined(separator: " AND "),
                                                 range.values + part.values, orderedLimit: limit - files.count)
                // The first part's rows are taken as they are: appending copies (and retains)
                // every id and path, a share of a restart's CPU.
                if files.isEmpty { files = rows } else { files += rows }
            }
            return files
        }
    }

    /// The stems (`PathStems`) under `root`, by id and path; nil when the root lies inside one
    /// (a stem above it holds its files, so none of its stems can be told apart from it).
    public func stems(under root: PathBytes) throws -> [(id: Int64, path: PathBytes)]? {
        try read { db in
            let prefix = root.folderPrefix.bytes
            guard case .stems(let low, let high) = try PathStems.range(db, prefix: prefix) else { return nil }
            let range = PathStems.between("path", from: low, below: high)
            let statement = try db.statement("SELECT id, path FROM folders WHERE \(range.sql) ORDER BY path")
            try statement.bind(range.values)
            var stems: [(id: Int64, path: PathBytes)] = []
            while try statement.step() { stems.append((statement.int64(0), PathBytes(statement.blob(1)))) }
            return stems
        }
    }

    /// `PathStems.after`, with `path` itself included: the rest of its stem from it, then the stems after.
    private static func from(_ db: SQLiteConnection,
                             _ path: PathBytes) throws -> [(conditions: [String], values: [SQLiteValue])] {
        // No stem holds the path: a stem before it holds only paths before it.
        guard let held = try PathStems.find(db, path.bytes) else { return [(["f.path >= ?"], [.blob(path.bytes)])] }
        return [(["f.id = ?", "a.name >= ?"], [.integer(held.folder), .blob(held.name)]),
                (["f.path > ?"], [.blob(held.stem)])]
    }
}
