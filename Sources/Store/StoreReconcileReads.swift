import SQLite

// The index's files in path order, a page at a time: a reconcile compares them with a walk of
// the disk in the same order, so neither list is ever held whole (a million photos would be
// hundreds of megabytes of paths).
extension StoreDatabase {
    /// Up to `limit` indexed files under `root`, in path (byte) order: after the path `after`,
    /// else from the path `from`, else from the first.
    func indexedFiles(under root: [UInt8], from: [UInt8]?, after: [UInt8]?, limit: Int) throws -> [IndexedFile] {
        let (low, high) = Self.prefixRange(root)
        let start = after ?? from.map { $0.lexicographicallyPrecedes(low) ? low : $0 } ?? low
        return try read { db in
            // Two statements rather than one with an OR, so that both bounds are a range on the path index.
            let statement = try db.statement("""
                SELECT id, path, \(AssetRowDecoder.stampColumns) FROM assets
                WHERE path \(after == nil ? ">=" : ">") ? AND path < ? ORDER BY path LIMIT ?
                """)
            try statement.bind([.blob(start), .blob(high), .integer(Int64(limit))])
            let (id, path, stamp) = (try statement.column(named: "id"), try statement.column(named: "path"),
                                     try StampColumns(statement))
            var files: [IndexedFile] = []
            files.reserveCapacity(limit)
            while try statement.step() {
                files.append(IndexedFile(
                    id: statement.text(id) ?? "", path: statement.blob(path), stamp: stamp.decode(statement)))
            }
            return files
        }
    }
}

extension Store {
    /// Up to `limit` indexed files under `root` (a folder path without trailing slash) in path
    /// (byte) order: after the path `after`, else from the path `from` (included), else from the
    /// first. For a reconcile, page by page.
    nonisolated(nonsending) public func indexedFiles(under root: [UInt8], from: [UInt8]? = nil, after: [UInt8]?,
                                                     limit: Int) async throws -> [IndexedFile] {
        try await onReader { try $0.indexedFiles(under: root, from: from, after: after, limit: limit) }
    }
}
