import FileSystem
import SQLite

/// The orders `assets(in:sort:after:limit:)` can return.
public enum StoreSort: String, Sendable, CaseIterable {
    case taken, path, modified
}

/// A position in an ordered listing: the last row's sort value and id.
public struct StorePosition: Sendable, Equatable {
    /// The sort value: an integer for taken and modified, the path for path.
    public enum Value: Sendable, Equatable {
        case integer(Int64)
        case path(PathBytes)
    }

    public var value: Value
    public var id: String

    /// Creates a position.
    public init(value: Value, id: String) {
        self.value = value
        self.id = id
    }
}

extension StoreDatabase {
    /// Every indexed file under `root` (a folder path without trailing slash), for reconciling.
    public func indexedFiles(under root: PathBytes) throws -> [IndexedFile] {
        try indexedFiles(withPrefix: root.folderPrefix)
    }

    /// Indexed files whose path starts with `prefix` byte for byte (an image's siblings: "dir/name.").
    public func indexedFiles(withPrefix prefix: PathBytes) throws -> [IndexedFile] {
        try read { db in
            let condition = try PathStems.range(db, prefix: prefix.bytes).condition
            return try Self.indexedFiles(db, where: condition.sql, condition.values)
        }
    }

    /// The order `indexedFiles` joins an asset to its stem in.
    enum StemJoin: String {
        /// Stems outside: the rows come stem by stem, in path order without a sort (a range of
        /// paths).
        case stemsFirst = "folders f CROSS JOIN assets a ON a.folder = f.id"
        /// Assets outside, each one's stem found by its key: for a condition an index on `assets`
        /// answers alone, which stems-first would probe once per stem of the library.
        case assetsFirst = "assets a CROSS JOIN folders f ON f.id = a.folder"
    }

    /// The statement `indexedFiles` runs.
    static func indexedFilesSQL(where condition: String, join: StemJoin = .stemsFirst, ordered: Bool = false) -> String {
        """
        SELECT a.id, f.path AS folder_path, a.name, \(AssetRowDecoder.stampColumns)
        FROM \(join.rawValue) WHERE \(condition)
        """ + (ordered ? " ORDER BY f.path, a.name LIMIT ?" : "")
    }

    /// The condition of a lookup by identity (`indexedFiles(device:inode:)`); binds inode, device.
    static let identityCondition = "a.inode = ? AND a.device = ?"

    /// The indexed files of `assets a` meeting `condition` (on `a` and its stem `f`); the first
    /// `orderedLimit` in path order when one is given.
    static func indexedFiles(_ db: SQLiteConnection, where condition: String, _ values: [SQLiteValue],
                             join: StemJoin = .stemsFirst, orderedLimit: Int? = nil) throws -> [IndexedFile] {
        let statement = try db.statement(indexedFilesSQL(where: condition, join: join, ordered: orderedLimit != nil))
        try statement.bind(values + (orderedLimit.map { [.integer(Int64($0))] } ?? []))
        let (id, stem, name, stamp) = (try statement.column(named: "id"), try statement.column(named: "folder_path"),
                                       try statement.column(named: "name"), try StampColumns(statement))
        var files: [IndexedFile] = []
        while try statement.step() {
            files.append(IndexedFile(id: AssetEncoding.idText(statement, id), path: PathBytes(statement.blob(stem, followedBy: name)),
                                     stamp: stamp.decode(statement)))
        }
        return files
    }

    /// The indexed file at exactly `path`, if any.
    public func indexedFile(at path: PathBytes) throws -> IndexedFile? {
        try read { db in
            guard let (folder, _, name) = try PathStems.find(db, path.bytes) else { return nil }
            return try Self.indexedFiles(db, where: "f.id = ? AND a.name = ?", [.integer(folder), .blob(name)]).first
        }
    }

    /// The indexed files at these paths (paths with none left out), in one read.
    public func indexedFiles(at paths: [PathBytes]) throws -> [IndexedFile] {
        try paths.compactMap { try indexedFile(at: $0) }
    }

    /// Indexed files on the same (device, inode) as any of `stamps`: where a file seen at a new
    /// path may already be indexed under another. Each identity is looked up once.
    public func indexedFiles(sharingInodeWith stamps: [FileStamp]) throws -> [IndexedFile] {
        var seen: Set<[UInt64]> = []
        return try stamps.filter { seen.insert([$0.device, $0.inode]).inserted }
            .flatMap { try indexedFiles(device: $0.device, inode: $0.inode) }
    }

    /// Indexed files with this (device, inode): the same file under one or more paths.
    func indexedFiles(device: UInt64, inode: UInt64) throws -> [IndexedFile] {
        try read { db in
            try Self.indexedFiles(db, where: Self.identityCondition,
                                  [.integer(Int64(bitPattern: inode)), .integer(Int64(bitPattern: device))],
                                  join: .assetsFirst)
        }
    }

    /// Total assets and groups.
    public func totals() throws -> (assets: Int, groups: Int) {
        try read { db in
            let statement = try db.statement("SELECT coalesce(sum(count), 0), count(*) FROM groups")
            guard try statement.step() else { return (0, 0) }
            return (Int(statement.int64(0)), Int(statement.int64(1)))
        }
    }

    /// Every group, by name.
    public func groups() throws -> [StoredGroup] {
        try read { db in
            let statement = try db.statement(
                "SELECT key, name, count, latest_taken, latest_mtime_ns FROM groups ORDER BY name, key")
            let columns = try GroupColumns(statement)
            var groups: [StoredGroup] = []
            while try statement.step() { groups.append(columns.decode(statement)) }
            return groups
        }
    }

    /// Whether a group with this key exists. Groups are found by key only: a display name can
    /// be shared (the fallback group "Other" and a photo described "Other"), a key cannot.
    public func hasGroup(key: String) throws -> Bool {
        try read { db in
            let statement = try db.statement("SELECT 1 FROM groups WHERE key = ?")
            try statement.bind([.text(key)])
            return try statement.step()
        }
    }

    /// Up to `limit` asset ids starting with `prefix`, in order (the id's unique index answers it).
    func assetIDs(withPrefix prefix: String, limit: Int) throws -> [String] {
        try read { db in
            // Stored ids sort as their text does, so the ids with the prefix are one range.
            guard let range = AssetEncoding.idRange(prefix: prefix) else { return [] }
            let statement = try db.statement(range.high == nil
                ? "SELECT id FROM assets WHERE id >= ?1 ORDER BY id LIMIT ?3"
                : "SELECT id FROM assets WHERE id >= ?1 AND id < ?2 ORDER BY id LIMIT ?3")
            try statement.bind([range.low, range.high ?? .null, .integer(Int64(limit))])
            var ids: [String] = []
            while try statement.step() { ids.append(AssetEncoding.idText(statement, 0)) }
            return ids
        }
    }

    /// The assets with these ids (in no particular order); ids not found are absent.
    public func assets(ids: [String]) throws -> [StoredAsset] {
        try read { db in
            let statement = try db.statement(
                "SELECT \(AssetRowDecoder.assetColumns) FROM assets a \(AssetRowDecoder.joins) WHERE a.id = ?")
            let columns = try AssetColumns(statement)
            var found: [StoredAsset] = []
            for id in ids {
                statement.reset()
                try statement.bind([AssetEncoding.id(id)])
                if try statement.step() { found.append(columns.decode(statement)) }
            }
            return found
        }
    }

    /// Every asset, for regrouping after the grouping rules changed.
    public func allAssets() throws -> [StoredAsset] {
        try read { db in
            let statement = try db.statement(
                "SELECT \(AssetRowDecoder.assetColumns) FROM assets a \(AssetRowDecoder.joins) ORDER BY a.id")
            let columns = try AssetColumns(statement)
            var all: [StoredAsset] = []
            while try statement.step() { all.append(columns.decode(statement)) }
            return all
        }
    }

    /// The newest token in the change log (0 before the first change).
    public func currentToken() throws -> Int64 {
        try read { db in
            let statement = try db.statement("SELECT seq FROM sqlite_sequence WHERE name = 'changes'")
            return try statement.step() ? statement.int64(0) : 0
        }
    }

    /// The oldest token still in the change log, nil when the log is empty.
    public func oldestLoggedToken() throws -> Int64? {
        try read { db in
            let statement = try db.statement("SELECT min(token) FROM changes")
            return try statement.step() && !statement.isNull(0) ? statement.int64(0) : nil
        }
    }

    /// The logged changes after `token`, oldest first.
    public func changes(after token: Int64, limit: Int = 1000) throws -> [CommittedChange] {
        try read { db in
            let statement = try db.statement("SELECT token, payload FROM changes WHERE token > ? ORDER BY token LIMIT ?")
            try statement.bind([.integer(token), .integer(Int64(limit))])
            var changes: [CommittedChange] = []
            while try statement.step() {
                guard var change = ChangePayload.decode(statement, 1) else { continue }
                change.token = statement.int64(0)
                changes.append(change)
            }
            return changes
        }
    }
}
