import SQLite

/// What `ListAssets` asks of the store: one group or all, an order, a time range, a page.
public struct StoreListing: Sendable, Equatable {
    public var groupKey: String?
    public var sort: StoreSort
    /// Newest (or last) first.
    public var descending: Bool
    /// Only assets taken (else modified) in this range.
    public var range: StoreTimeRange?
    /// Only the assets a limited app may see.
    public var selection: StoreSelection?

    /// Creates a listing.
    public init(groupKey: String? = nil, sort: StoreSort = .taken, descending: Bool = false,
                range: StoreTimeRange? = nil, selection: StoreSelection? = nil) {
        self.groupKey = groupKey
        self.sort = sort
        self.descending = descending
        self.range = range
        self.selection = selection
    }

    /// The page of up to `limit` assets after `position`: the SQL and its values.
    func statement(after position: StorePosition?, limit: Int) -> (sql: String, values: [SQLiteValue]) {
        let column: String
        switch sort {
        case .taken: column = "a.taken_key"
        case .modified: column = "a.mtime_ns"
        case .path: column = "a.path"
        }
        var conditions: [String] = []
        var values: [SQLiteValue] = []
        if let groupKey {
            conditions.append("a.group_key = ?")
            values.append(.text(groupKey))
        }
        if let selection {
            conditions.append(StoreSelection.condition)
            values += selection.values
        }
        if let range {
            let filter = range.conditions
            conditions += filter.sql
            values += filter.values
        }
        let after = descending ? "<" : ">"
        if let position {
            switch position.value {
            case .integer(let number):
                conditions.append("(\(column), a.id) \(after) (?, ?)")
                values += [.integer(number), .text(position.id)]
            case .bytes(let bytes):
                conditions.append("\(column) \(after) ?")
                values.append(.blob(bytes))
            }
        }
        let direction = descending ? " DESC" : ""
        let order = sort == .path ? column + direction : "\(column)\(direction), a.id\(direction)"
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let sql = "SELECT \(StoreDatabase.assetColumns) FROM assets a JOIN groups g ON g.key = a.group_key "
            + "\(filter) ORDER BY \(order) LIMIT ?"
        values.append(.integer(Int64(limit)))
        return (sql, values)
    }
}

extension StoreDatabase {
    /// Up to `limit` assets of `listing` after `position`.
    func assets(_ listing: StoreListing, after position: StorePosition?, limit: Int) throws -> [StoredAsset] {
        let (sql, values) = listing.statement(after: position, limit: limit)
        return try read { db in try AssetColumns.rows(db, sql, values) }
    }

    /// Up to `limit` assets of one group (or all) in `sort` order, after `position`; with a
    /// selection, only the assets it holds.
    func assets(
        groupKey: String?, sort: StoreSort, after position: StorePosition?, limit: Int,
        selection: StoreSelection? = nil
    ) throws -> [StoredAsset] {
        try assets(StoreListing(groupKey: groupKey, sort: sort, selection: selection), after: position, limit: limit)
    }
}
