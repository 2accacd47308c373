#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FileSystem
import SQLite

/// The part of the library a limited app may see: every asset of some groups, and some assets by id.
public struct StoreSelection: Sendable, Equatable {
    /// Keys of the groups whose assets are all visible (groups that do not exist yet match nothing).
    public var groupKeys: [String]
    /// Ids of single assets that are visible (ids that do not exist match nothing).
    public var ids: [String]

    /// Creates a selection.
    public init(groupKeys: [String], ids: [String]) {
        self.groupKeys = groupKeys
        self.ids = ids
    }

    /// The selection as sets, for testing many assets against it.
    public var matcher: SelectionMatcher { SelectionMatcher(self) }

    /// The SQL condition on `assets a`, bound to `values`. The lists travel as one value each
    /// (keys as a JSON text, ids as their stored bytes end to end and, for an id of another
    /// form, JSON), so a selection of any size is three parameters and one prepared statement.
    static let condition = "(a.group_id IN \(groupIDs) OR a.id IN \(storedIDs))"

    /// The numbers of the selection's groups; binds the first value.
    static let groupIDs = "(SELECT id FROM groups WHERE key IN (SELECT value FROM json_each(?)))"

    /// The selection's ids as stored (`AssetEncoding`); binds the second and third values.
    static let storedIDs = """
        (WITH RECURSIVE list(bytes) AS (SELECT ?), at(offset) AS (SELECT 0 UNION ALL SELECT offset + 10 FROM at, list \
        WHERE offset + 10 < length(list.bytes)) SELECT substr(list.bytes, offset + 1, 10) FROM at, list \
        UNION ALL SELECT value FROM json_each(?))
        """

    /// The values `condition` binds.
    var values: [SQLiteValue] {
        var packed: [UInt8] = []
        var others: [String] = []
        for id in ids {
            if let bytes = AssetEncoding.idBytes(id) { packed += bytes } else { others.append(id) }
        }
        return [.text(Self.json(groupKeys)), .blob(packed), .text(Self.json(others))]
    }

    /// `strings` as one JSON array, for `json_each`.
    static func json(_ strings: [String]) -> String {
        (try? String(decoding: JSONEncoder().encode(strings), as: UTF8.self)) ?? "[]"
    }
}

/// Tests assets against a selection in memory, the same rule `StoreSelection.condition` applies in SQL.
public struct SelectionMatcher: Sendable {
    private let groupKeys: Set<String>
    private let ids: Set<String>

    /// A matcher for `selection`.
    public init(_ selection: StoreSelection) {
        groupKeys = Set(selection.groupKeys)
        ids = Set(selection.ids)
    }

    /// Whether an asset with this id in the group with this key is in the selection.
    public func contains(id: String, groupKey: String) -> Bool {
        groupKeys.contains(groupKey) || ids.contains(id)
    }
}

/// An asset's place in the library as a subscription needs it to filter changes.
public struct AssetMembership: Sendable, Equatable {
    public var id: String
    public var groupKey: String
    public var groupName: String

    /// Creates a membership.
    public init(id: String, groupKey: String, groupName: String) {
        self.id = id
        self.groupKey = groupKey
        self.groupName = groupName
    }
}

extension StoreDatabase {
    /// The groups that hold assets of `selection`, each counting only those assets, by name.
    func groups(in selection: StoreSelection) throws -> [StoredGroup] {
        try read { db in
            let statement = try db.statement("""
                SELECT g.key, g.name, count(*) AS count, max(\(AssetEncoding.takenSQL)) AS latest_taken,
                  max(a.mtime_ns) AS latest_mtime_ns
                FROM assets a JOIN groups g ON g.id = a.group_id
                WHERE \(StoreSelection.condition) GROUP BY g.id ORDER BY g.name, g.key
                """)
            try statement.bind(selection.values)
            let columns = try GroupColumns(statement)
            var groups: [StoredGroup] = []
            while try statement.step() { groups.append(columns.decode(statement)) }
            return groups
        }
    }

    /// Assets and groups of `selection`.
    func totals(in selection: StoreSelection) throws -> (assets: Int, groups: Int) {
        try read { db in
            let statement = try db.statement(
                "SELECT count(*), count(DISTINCT a.group_id) FROM assets a WHERE \(StoreSelection.condition)")
            try statement.bind(selection.values)
            guard try statement.step() else { return (0, 0) }
            return (Int(statement.int64(0)), Int(statement.int64(1)))
        }
    }

    /// Number of assets of `selection` under `root`.
    func assetCount(under root: PathBytes, in selection: StoreSelection) throws -> Int {
        try read { db in
            let range = try PathStems.range(db, prefix: root.folderPrefix.bytes).condition
            let statement = try db.statement(Self.selectionCountSQL(range: range.sql))
            try statement.bind(range.values + selection.values)
            return try statement.step() ? Int(statement.int64(0)) : 0
        }
    }

    /// The count of a selection's assets in a range of folders, binding the range's values, then
    /// the selection's. It starts from the selection, then its folders: a selection is most often
    /// far smaller than the root, and testing each of the root's rows against it made a limited
    /// app's Status several times the owner's (bench/run permissions).
    static func selectionCountSQL(range: String) -> String {
        """
        SELECT count(*) FROM assets a JOIN folders f ON f.id = a.folder
        WHERE \(range) AND \(StoreSelection.condition)
        """
    }

    /// Every asset of `selection` with its group.
    public func memberships(in selection: StoreSelection) throws -> [AssetMembership] {
        try read { db in
            let statement = try db.statement("""
                SELECT a.id, g.key AS group_key, g.name FROM assets a JOIN groups g ON g.id = a.group_id
                WHERE \(StoreSelection.condition)
                """)
            try statement.bind(selection.values)
            let (id, key, name) = (try statement.column(named: "id"), try statement.column(named: "group_key"),
                                   try statement.column(named: "name"))
            var found: [AssetMembership] = []
            while try statement.step() {
                found.append(AssetMembership(
                    id: AssetEncoding.idText(statement, id), groupKey: statement.text(key) ?? "", groupName: statement.text(name) ?? ""))
            }
            return found
        }
    }

    /// The groups of the assets with these ids; ids not found are absent.
    public func memberships(ids: [String]) throws -> [AssetMembership] {
        try read { db in
            let statement = try db.statement(
                "SELECT g.key AS group_key, g.name FROM assets a JOIN groups g ON g.id = a.group_id WHERE a.id = ?")
            let (key, name) = (try statement.column(named: "group_key"), try statement.column(named: "name"))
            var found: [AssetMembership] = []
            for id in ids {
                statement.reset()
                try statement.bind([AssetEncoding.id(id)])
                if try statement.step() {
                    found.append(AssetMembership(id: id, groupKey: statement.text(key) ?? "", groupName: statement.text(name) ?? ""))
                }
            }
            return found
        }
    }
}
