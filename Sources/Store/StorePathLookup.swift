import SQLite

extension StoreDatabase {
    /// The assets at exactly these paths (in no particular order); paths not indexed are absent.
    func assets(paths: [[UInt8]]) throws -> [StoredAsset] {
        try read { db in
            let statement = try db.statement(
                "SELECT \(Self.assetColumns) FROM assets a JOIN groups g ON g.key = a.group_key WHERE a.path = ?")
            let columns = try AssetColumns(statement)
            var found: [StoredAsset] = []
            for path in paths {
                statement.reset()
                try statement.bind([.blob(path)])
                if try statement.step() { found.append(columns.decode(statement)) }
            }
            return found
        }
    }

    /// The id of every asset a selection shows, by path: a limited app's lookup by path is
    /// answered from this, so a hidden path costs the same as one that is not indexed at all.
    func visibleIDsByPath(in selection: StoreSelection) throws -> [[UInt8]: String] {
        try read { db in
            // Two indexed branches, as in `visibleIDs(in:)`.
            let statement = try db.statement("""
                SELECT path, id FROM assets WHERE group_key IN (SELECT value FROM json_each(?))
                UNION ALL SELECT path, id FROM assets WHERE id IN (SELECT value FROM json_each(?))
                """)
            try statement.bind(selection.values)
            var ids: [[UInt8]: String] = [:]
            while try statement.step() {
                if let id = statement.text(1) { ids[statement.blob(0)] = id }
            }
            return ids
        }
    }
}
