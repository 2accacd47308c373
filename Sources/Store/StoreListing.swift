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

    /// The page of up to `limit` assets after `position` in the taken or modified order: the SQL
    /// and its values. (The path order takes `statements(_:after:limit:)`.)
    func statement(after position: StorePosition?, limit: Int) -> (sql: String, values: [SQLiteValue]) {
        let column = sort == .modified ? "a.mtime_ns" : "a.taken_key"
        var (conditions, values) = filters()
        let after = descending ? "<" : ">"
        if let position {
            switch position.value {
            case .integer(let number):
                conditions.append("(\(column), a.id) \(after) (?, ?)")
                values += [.integer(number), AssetEncoding.id(position.id)]
            case .path(let path):
                // A path cursor in another order compares as SQLite compares a number with bytes.
                conditions.append("\(column) \(after) ?")
                values.append(.blob(path.bytes))
            }
        }
        let direction = descending ? " DESC" : ""
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let sql = "SELECT \(AssetRowDecoder.assetColumns) FROM assets a \(AssetRowDecoder.joins) "
            + "\(filter) ORDER BY \(column)\(direction), a.id\(direction) LIMIT ?"
        values.append(.integer(Int64(limit)))
        return (sql, values)
    }

    /// The statements of the page, run one after the other until it is full: one for the taken
    /// and modified orders; for the path order, the rest of the cursor's stem, then the stems
    /// after it (`PathStems`: stem, then name, is path order), each walked stem by stem.
    func statements(_ db: SQLiteConnection, after position: StorePosition?,
                    limit: Int) throws -> [(sql: String, values: [SQLiteValue])] {
        guard sort == .path else { return [statement(after: position, limit: limit)] }
        var parts: [(conditions: [String], values: [SQLiteValue])] = []
        if let position, case .path(let cursor) = position.value {
            parts = try PathStems.after(db, cursor: cursor.bytes, descending: descending)
        } else if position != nil, descending {
            // A number cursor in the path order: every path sorts after a number, as SQLite compares them.
            return []
        } else {
            parts.append(([], []))
        }
        let direction = descending ? " DESC" : ""
        let (filters, filterValues) = filters()
        return parts.map { part in
            let conditions = filters + part.conditions
            let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
            // Stems outside, so the rows come in order stem by stem without a sort.
            let sql = "SELECT \(AssetRowDecoder.assetColumns) FROM folders f CROSS JOIN assets a ON a.folder = f.id "
                + "JOIN groups g ON g.id = a.group_id LEFT JOIN cameras c ON c.id = a.camera "
                + "\(filter) ORDER BY f.path\(direction), a.name\(direction) LIMIT ?"
            return (sql, filterValues + part.values + [.integer(Int64(limit))])
        }
    }

    /// The group, selection and time conditions on `assets a`, and their values.
    private func filters() -> (conditions: [String], values: [SQLiteValue]) {
        var conditions: [String] = []
        var values: [SQLiteValue] = []
        if let groupKey {
            conditions.append("a.group_id = (SELECT id FROM groups WHERE key = ?)")
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
        return (conditions, values)
    }
}

extension StoreDatabase {
    /// Up to `limit` assets of `listing` after `position`.
    public func assets(_ listing: StoreListing, after position: StorePosition?, limit: Int) throws -> [StoredAsset] {
        try read { db in
            var rows: [StoredAsset] = []
            for (sql, values) in try listing.statements(db, after: position, limit: limit) where rows.count < limit {
                rows += try AssetColumns.rows(db, sql, Array(values.dropLast()) + [.integer(Int64(limit - rows.count))])
            }
            return rows
        }
    }

    /// Up to `limit` assets of one group (or all) in `sort` order, after `position`; with a
    /// selection, only the assets it holds.
    public func assets(
        groupKey: String?, sort: StoreSort, after position: StorePosition?, limit: Int,
        selection: StoreSelection? = nil
    ) throws -> [StoredAsset] {
        try assets(StoreListing(groupKey: groupKey, sort: sort, selection: selection), after: position, limit: limit)
    }
}
