import SQLite

/// What a limited selection can see, computed from the selection alone.
///
/// A limited app must not be able to time whether something hidden exists: a lookup that
/// probes the whole library and only then filters costs more for a hidden row than for a
/// missing one. These queries start from the selection instead, so their cost depends only on
/// what the owner shared; the caller then answers the app's question in memory, where a hidden
/// name or id and one that never existed take the same path.
public struct VisibleSet: Sendable, Equatable {
    /// Ids of every asset the selection shows.
    public var ids: Set<String>
    /// Keys and names of every group holding an asset the selection shows.
    public var groups: [VisibleGroup]

    /// Creates a visible set.
    public init(ids: Set<String>, groups: [VisibleGroup]) {
        self.ids = ids
        self.groups = groups
    }

    /// Whether the group with this key is visible (by key, as `StoreDatabase.hasGroup(key:)` finds groups).
    public func contains(groupKey key: String) -> Bool {
        groups.contains { $0.key == key }
    }
}

/// One group as a selection sees it: its key and display name.
public struct VisibleGroup: Sendable, Equatable {
    public var key: String
    public var name: String

    /// Creates a visible group.
    public init(key: String, name: String) {
        self.key = key
        self.name = name
    }
}

extension StoreDatabase {
    /// The ids a selection shows: the assets of its groups and its single assets that exist.
    func visibleIDs(in selection: StoreSelection) throws -> Set<String> {
        try read { db in
            // Two indexed branches instead of one OR, which SQLite answers with a full scan.
            let statement = try db.statement("""
                SELECT id FROM assets a WHERE a.group_id IN \(StoreSelection.groupIDs)
                UNION ALL SELECT id FROM assets a WHERE a.id IN \(StoreSelection.storedIDs)
                """)
            try statement.bind(selection.values)
            var ids = Set<String>()
            while try statement.step() {
                ids.insert(AssetEncoding.idText(statement, 0))
            }
            return ids
        }
    }

    /// The groups a selection shows: its groups that exist, and the groups of its single assets.
    func visibleGroups(in selection: StoreSelection) throws -> [VisibleGroup] {
        try read { db in
            let statement = try db.statement("""
                SELECT key, name FROM groups WHERE key IN (SELECT value FROM json_each(?))
                    OR id IN (SELECT group_id FROM assets a WHERE a.id IN \(StoreSelection.storedIDs))
                ORDER BY key
                """)
            try statement.bind(selection.values)
            let (key, name) = (try statement.column(named: "key"), try statement.column(named: "name"))
            var groups: [VisibleGroup] = []
            while try statement.step() {
                groups.append(VisibleGroup(key: statement.text(key) ?? "", name: statement.text(name) ?? ""))
            }
            return groups
        }
    }
}
