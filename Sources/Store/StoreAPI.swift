import SQLite

// The store's public operations. Each runs the blocking query of the same name in
// `StoreDatabase` on the store's own threads: reads on a reader, writes on the writer.
extension Store {
    // MARK: Writes

    /// Commits `batch` in one transaction and records it in the change log; nil when nothing changed.
    nonisolated(nonsending) public func apply(_ batch: WriteBatch) async throws -> CommittedChange? {
        guard !batch.isEmpty else { return nil }
        return try await write { try $0.apply(batch) }
    }

    /// Caps the index file at `bytes` (nil: no cap beyond the disk's). A write that would grow
    /// it past the cap fails as on a full disk, and the index stays as it was. A cap below the
    /// current size holds the index at its current size.
    nonisolated(nonsending) public func limitSize(toBytes bytes: Int?) async throws {
        try await write { try $0.limitSize(toBytes: bytes) }
    }

    /// Remembers a setting.
    nonisolated(nonsending) public func setSetting(_ key: String, to value: String) async throws {
        try await write { try $0.setSetting(key, to: value) }
    }

    /// Marks every asset's stamp unknown, so the next reconcile reads every file again (ids kept):
    /// for when what reading a file yields has changed, such as the description sources.
    nonisolated(nonsending) public func forgetReadStamps() async throws {
        try await write { try $0.forgetReadStamps() }
    }

    /// Marks these assets' stamps unknown, so the next reconcile reads their files again (ids kept).
    nonisolated(nonsending) public func forgetReadStamps(ids: [String]) async throws {
        guard !ids.isEmpty else { return }
        try await write { try $0.forgetReadStamps(ids: ids) }
    }

    /// Stores an app record, replacing the one with the same uid and id; durable when this returns.
    nonisolated(nonsending) public func saveApp(_ app: StoredApp) async throws {
        try await write { try $0.saveApp(app) }
    }

    /// Deletes an app record; true when there was one.
    @discardableResult
    nonisolated(nonsending) public func deleteApp(uid: UInt32, id: String) async throws -> Bool {
        try await write { try $0.deleteApp(uid: uid, id: id) }
    }

    // MARK: Reads

    /// A setting remembered in the index (for example, the grouping rules it was built with).
    nonisolated(nonsending) public func setting(_ key: String) async throws -> String? {
        try await read { try $0.setting(key) }
    }

    /// Every stored app record, by uid and id.
    nonisolated(nonsending) public func apps() async throws -> [StoredApp] {
        try await read { try $0.apps() }
    }

    /// Every indexed file under `root` (a folder path without trailing slash), for reconciling.
    nonisolated(nonsending) public func indexedFiles(under root: [UInt8]) async throws -> [IndexedFile] {
        try await read { try $0.indexedFiles(under: root) }
    }

    /// The indexed file at exactly `path`, if any.
    nonisolated(nonsending) public func indexedFile(at path: [UInt8]) async throws -> IndexedFile? {
        try await read { try $0.indexedFile(at: path) }
    }

    /// The indexed files at these paths (paths with none left out), in one trip to a reader.
    nonisolated(nonsending) public func indexedFiles(at paths: [[UInt8]]) async throws -> [IndexedFile] {
        try await read { try $0.indexedFiles(at: paths) }
    }

    /// Indexed files whose path starts with `prefix` byte for byte (an image's siblings: "dir/name.").
    nonisolated(nonsending) public func indexedFiles(withPrefix prefix: [UInt8]) async throws -> [IndexedFile] {
        try await read { try $0.indexedFiles(withPrefix: prefix) }
    }

    /// Indexed files on the same (device, inode) as any of `stamps`: where a file seen at a new
    /// path may already be indexed under another. One trip to a reader for the lot.
    nonisolated(nonsending) public func indexedFiles(sharingInodeWith stamps: [FileStamp]) async throws -> [IndexedFile] {
        try await read { try $0.indexedFiles(sharingInodeWith: stamps) }
    }

    /// Number of assets under `root`.
    nonisolated(nonsending) public func assetCount(under root: [UInt8]) async throws -> Int {
        try await read { try $0.assetCount(under: root) }
    }

    /// Total assets and groups.
    nonisolated(nonsending) public func totals() async throws -> (assets: Int, groups: Int) {
        try await read { try $0.totals() }
    }

    /// Every group with its count and newest asset.
    nonisolated(nonsending) public func groups() async throws -> [StoredGroup] {
        try await read { try $0.groups() }
    }

    /// Whether a group with this key exists.
    nonisolated(nonsending) public func hasGroup(key: String) async throws -> Bool {
        try await read { try $0.hasGroup(key: key) }
    }

    /// The assets with these ids (missing ones left out).
    nonisolated(nonsending) public func assets(ids: [String]) async throws -> [StoredAsset] {
        try await read { try $0.assets(ids: ids) }
    }

    /// Up to `limit` assets of one group (or all) in `sort` order, after `position`; with a
    /// selection, only the assets it holds.
    nonisolated(nonsending) public func assets(
        groupKey: String?, sort: StoreSort, after position: StorePosition?, limit: Int,
        selection: StoreSelection? = nil
    ) async throws -> [StoredAsset] {
        try await read {
            try $0.assets(groupKey: groupKey, sort: sort, after: position, limit: limit, selection: selection)
        }
    }

    /// Up to `limit` assets of `listing` (a group or all, in an order, in a time range, as far
    /// as a selection shows) after `position`.
    nonisolated(nonsending) public func assets(
        _ listing: StoreListing, after position: StorePosition?, limit: Int
    ) async throws -> [StoredAsset] {
        try await read { try $0.assets(listing, after: position, limit: limit) }
    }

    /// Up to `limit` assets whose description, file name, make or model holds every word of
    /// `query` (ignoring case and accents), newest first (taken, else modified), after
    /// `position`; of one group when `groupKey` is given; with a selection, only its assets.
    nonisolated(nonsending) public func search(
        _ query: SearchQuery, groupKey: String?, after position: StorePosition?, limit: Int,
        selection: StoreSelection? = nil
    ) async throws -> [StoredAsset] {
        try await searchPage(query, groupKey: groupKey, after: position, limit: limit, selection: selection).assets
    }

    /// The assets at exactly these paths (missing ones left out).
    nonisolated(nonsending) public func assets(paths: [[UInt8]]) async throws -> [StoredAsset] {
        try await read { try $0.assets(paths: paths) }
    }

    /// Every asset (for regrouping).
    nonisolated(nonsending) public func allAssets() async throws -> [StoredAsset] {
        try await read { try $0.allAssets() }
    }

    /// The newest change token (0 for an index that never changed).
    nonisolated(nonsending) public func currentToken() async throws -> Int64 {
        try await read { try $0.currentToken() }
    }

    /// The oldest token still in the change log, if any.
    nonisolated(nonsending) public func oldestLoggedToken() async throws -> Int64? {
        try await read { try $0.oldestLoggedToken() }
    }

    /// Up to `limit` logged changes after `token`, oldest first.
    nonisolated(nonsending) public func changes(after token: Int64, limit: Int = 1000) async throws -> [CommittedChange] {
        try await read { try $0.changes(after: token, limit: limit) }
    }

    /// Each asset's id and group key, for the assets `selection` holds.
    nonisolated(nonsending) public func memberships(in selection: StoreSelection) async throws -> [AssetMembership] {
        try await read { try $0.memberships(in: selection) }
    }

    /// Each listed asset's id and group key (missing ones left out).
    nonisolated(nonsending) public func memberships(ids: [String]) async throws -> [AssetMembership] {
        try await read { try $0.memberships(ids: ids) }
    }
}

// A bulk load (`BulkLoad`): the indexer calls `beginBulkLoad(adding:)` before writing many new
// files and `endBulkLoad()` after, before it reports the library ready.
extension Store {
    /// Begins a bulk load when `count` new files are about to be written and that is worth it
    /// (an empty index, or one they at least double): the indexes only queries use are dropped
    /// until `endBulkLoad()`. True when a bulk load is under way; every query stays right meanwhile.
    nonisolated(nonsending) public func beginBulkLoad(adding count: Int) async throws -> Bool {
        try await write { try $0.beginBulkLoad(adding: count) }
    }

    /// Begins a bulk load when the index holds no photo at all (a first index), before anything
    /// is written, whatever the number of files to come. True when a bulk load is under way.
    nonisolated(nonsending) public func beginFirstIndex() async throws -> Bool {
        try await write { try $0.beginFirstIndex() }
    }

    /// Hands back the memory SQLite's page caches hold (they fill again as queries need):
    /// for after a large reconcile. A bulk load's end does it by itself.
    nonisolated(nonsending) public func releaseMemory() async throws {
        try await write { $0.releaseMemory() }
    }
}
