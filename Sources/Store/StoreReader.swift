#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SQLite

/// The orders `assets(in:sort:after:limit:)` can return.
public enum StoreSort: String, Sendable, CaseIterable {
    case taken, path, modified
}

/// A position in an ordered listing: the last row's sort value and id.
public struct StorePosition: Sendable, Equatable {
    /// The sort value: an integer for taken and modified, path bytes for path.
    public enum Value: Sendable, Equatable {
        case integer(Int64)
        case bytes([UInt8])
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
    static let assetColumns = "a.id, a.path, a.device, a.inode, a.size, a.mtime_ns, a.sidecar, g.name, "
        + AssetRowDecoder.contentColumns.split(separator: ",").map { "a." + $0.filter { $0 != " " } }
        .joined(separator: ", ")


    /// Every indexed file under `root` (a folder path without trailing slash), for reconciling.
    func indexedFiles(under root: [UInt8]) throws -> [IndexedFile] {
        let (low, high) = Self.prefixRange(root)
        return try indexedFiles(from: low, below: high)
    }

    /// Indexed files whose path starts with `prefix` byte for byte (an image's siblings: "dir/name.").
    func indexedFiles(withPrefix prefix: [UInt8]) throws -> [IndexedFile] {
        guard let last = prefix.last, last < 0xFF else { return [] }
        var high = prefix
        high[high.count - 1] = last + 1
        return try indexedFiles(from: prefix, below: high)
    }

    private func indexedFiles(from low: [UInt8], below high: [UInt8]) throws -> [IndexedFile] {
        try read { db in
            let statement = try db.statement(
                "SELECT id, path, \(AssetRowDecoder.stampColumns) FROM assets WHERE path >= ? AND path < ?")
            try statement.bind([.blob(low), .blob(high)])
            let (id, path, stamp) = (try statement.column(named: "id"), try statement.column(named: "path"),
                                     try StampColumns(statement))
            var files: [IndexedFile] = []
            while try statement.step() {
                files.append(IndexedFile(
                    id: statement.text(id) ?? "", path: statement.blob(path), stamp: stamp.decode(statement)))
            }
            return files
        }
    }

    /// The indexed file at exactly `path`, if any.
    func indexedFile(at path: [UInt8]) throws -> IndexedFile? {
        try read { db in
            let statement = try db.statement("SELECT id, \(AssetRowDecoder.stampColumns) FROM assets WHERE path = ?")
            try statement.bind([.blob(path)])
            let (id, stamp) = (try statement.column(named: "id"), try StampColumns(statement))
            guard try statement.step() else { return nil }
            return IndexedFile(id: statement.text(id) ?? "", path: path, stamp: stamp.decode(statement))
        }
    }

    /// Indexed files with this (device, inode): the same file under one or more paths.
    func indexedFiles(device: UInt64, inode: UInt64) throws -> [IndexedFile] {
        try read { db in
            let statement = try db.statement(
                "SELECT id, path, \(AssetRowDecoder.stampColumns) FROM assets WHERE device = ? AND inode = ?")
            try statement.bind([.integer(Int64(bitPattern: device)), .integer(Int64(bitPattern: inode))])
            let (id, path, stamp) = (try statement.column(named: "id"), try statement.column(named: "path"),
                                     try StampColumns(statement))
            var files: [IndexedFile] = []
            while try statement.step() {
                files.append(IndexedFile(
                    id: statement.text(id) ?? "", path: statement.blob(path), stamp: stamp.decode(statement)))
            }
            return files
        }
    }

    /// Number of assets under `root`.
    func assetCount(under root: [UInt8]) throws -> Int {
        let (low, high) = Self.prefixRange(root)
        return try read { db in
            let statement = try db.statement("SELECT count(*) FROM assets WHERE path >= ? AND path < ?")
            try statement.bind([.blob(low), .blob(high)])
            return try statement.step() ? Int(statement.int64(0)) : 0
        }
    }

    /// The byte range holding every path below `root`: from "root/" up to, not including, "root0".
    static func prefixRange(_ root: [UInt8]) -> (low: [UInt8], high: [UInt8]) {
        var low = root
        if low.last != UInt8(ascii: "/") { low.append(UInt8(ascii: "/")) }
        var high = low
        high[high.count - 1] += 1
        return (low, high)
    }

    /// Total assets and groups.
    func totals() throws -> (assets: Int, groups: Int) {
        try read { db in
            let statement = try db.statement("SELECT coalesce(sum(count), 0), count(*) FROM groups")
            guard try statement.step() else { return (0, 0) }
            return (Int(statement.int64(0)), Int(statement.int64(1)))
        }
    }

    /// Every group, by name.
    func groups() throws -> [StoredGroup] {
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
    func hasGroup(key: String) throws -> Bool {
        try read { db in
            let statement = try db.statement("SELECT 1 FROM groups WHERE key = ?")
            try statement.bind([.text(key)])
            return try statement.step()
        }
    }

    /// Up to `limit` asset ids starting with `prefix`, in order (the id's unique index answers it).
    func assetIDs(withPrefix prefix: String, limit: Int) throws -> [String] {
        try read { db in
            // ids are lowercase base32, so every id with the prefix sorts between it and prefix + "~".
            let statement = try db.statement("SELECT id FROM assets WHERE id >= ? AND id < ? ORDER BY id LIMIT ?")
            try statement.bind([.text(prefix), .text(prefix + "~"), .integer(Int64(limit))])
            var ids: [String] = []
            while try statement.step() { ids.append(statement.text(0) ?? "") }
            return ids
        }
    }

    /// The assets with these ids (in no particular order); ids not found are absent.
    func assets(ids: [String]) throws -> [StoredAsset] {
        try read { db in
            let statement = try db.statement(
                "SELECT \(Self.assetColumns) FROM assets a JOIN groups g ON g.key = a.group_key WHERE a.id = ?")
            let columns = try AssetColumns(statement)
            var found: [StoredAsset] = []
            for id in ids {
                statement.reset()
                try statement.bind([.text(id)])
                if try statement.step() { found.append(columns.decode(statement)) }
            }
            return found
        }
    }

    /// Every asset, for regrouping after the grouping rules changed.
    func allAssets() throws -> [StoredAsset] {
        try read { db in
            let statement = try db.statement(
                "SELECT \(Self.assetColumns) FROM assets a JOIN groups g ON g.key = a.group_key ORDER BY a.id")
            let columns = try AssetColumns(statement)
            var all: [StoredAsset] = []
            while try statement.step() { all.append(columns.decode(statement)) }
            return all
        }
    }

    /// The newest token in the change log (0 before the first change).
    func currentToken() throws -> Int64 {
        try read { db in
            let statement = try db.statement("SELECT seq FROM sqlite_sequence WHERE name = 'changes'")
            return try statement.step() ? statement.int64(0) : 0
        }
    }

    /// The oldest token still in the change log, nil when the log is empty.
    func oldestLoggedToken() throws -> Int64? {
        try read { db in
            let statement = try db.statement("SELECT min(token) FROM changes")
            return try statement.step() && !statement.isNull(0) ? statement.int64(0) : nil
        }
    }

    /// The logged changes after `token`, oldest first.
    func changes(after token: Int64, limit: Int = 1000) throws -> [CommittedChange] {
        try read { db in
            let statement = try db.statement("SELECT token, payload FROM changes WHERE token > ? ORDER BY token LIMIT ?")
            try statement.bind([.integer(token), .integer(Int64(limit))])
            var changes: [CommittedChange] = []
            let decoder = JSONDecoder()
            while try statement.step() {
                guard var change = try? decoder.decode(CommittedChange.self, from: Data((statement.text(1) ?? "").utf8))
                else { continue }
                change.token = statement.int64(0)
                changes.append(change)
            }
            return changes
        }
    }
}
