import FileSystem
import SQLite

extension StoreDatabase {
    /// The assets at exactly these paths (in no particular order); paths not indexed are absent.
    public func assets(paths: [PathBytes]) throws -> [StoredAsset] {
        try read { db in
            let statement = try db.statement(
                "SELECT \(AssetRowDecoder.assetColumns) FROM assets a \(AssetRowDecoder.joins) WHERE a.folder = ? AND a.name = ?")
            let columns = try AssetColumns(statement)
            var found: [StoredAsset] = []
            for path in paths {
                guard let (folder, _, name) = try PathStems.find(db, path.bytes) else { continue }
                statement.reset()
                try statement.bind([.integer(folder), .blob(name)])
                if try statement.step() { found.append(columns.decode(statement)) }
            }
            return found
        }
    }

    /// The id of every asset a selection shows, by path: a limited app's lookup by path is
    /// answered from this, so a hidden path costs the same as one that is not indexed at all.
    func visibleIDsByPath(in selection: StoreSelection) throws -> [PathBytes: String] {
        try read { db in
            // Two indexed branches, as in `visibleIDs(in:)`.
            let statement = try db.statement("""
                SELECT f.path, a.name, a.id FROM assets a JOIN folders f ON f.id = a.folder
                    WHERE a.group_id IN \(StoreSelection.groupIDs)
                UNION ALL SELECT f.path, a.name, a.id FROM assets a JOIN folders f ON f.id = a.folder
                    WHERE a.id IN \(StoreSelection.storedIDs)
                """)
            try statement.bind(selection.values)
            var ids: [PathBytes: String] = [:]
            while try statement.step() {
                ids[PathBytes(statement.blob(0, followedBy: 1))] = AssetEncoding.idText(statement, 2)
            }
            return ids
        }
    }
}
