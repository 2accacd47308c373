import FileSystem
import Logging
import Store
import Synchronization

/// Which file system each root's photos were indexed on, and each drive's mounted at a folder
/// inside a root (kept in the index), and which of those folders are offline now. Shared by
/// the indexer, which decides, and the API, which marks the assets of an offline folder.
final class RootVolumes: Sendable {
    /// What `checkInside` found about the drives mounted inside a root.
    struct InsideMounts: Sendable {
        /// Folders whose drive is away, why, and whether they were already offline.
        var away: [(folder: PathBytes, reason: String, already: Bool)] = []
        /// Folders where a drive is mounted that was not (or not this mount): to watch afresh
        /// and reconcile.
        var arrived: [PathBytes] = []
        /// Folders that were offline and are not now.
        var cleared: [PathBytes] = []
    }

    private let store: Store
    private let logger: Logger
    /// The records by folder; nil until first read from the index.
    private let records = Mutex<[PathBytes: StoredVolume]?>(nil)
    /// Offline folders: a root's, keyed by the configured root, and a mount's inside a root,
    /// keyed by `mountKey`.
    private let offline = Mutex<[String: PathBytes]>([:])

    init(store: Store, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    /// Whether `path` lies in an offline folder.
    func isOffline(_ path: PathBytes) -> Bool {
        offline.withLock { folders in
            !folders.isEmpty && folders.values.contains { path.isSameOrInside($0) }
        }
    }

    /// The offline folders at or inside `folder`: a reconcile of it leaves them out.
    func offlineFolders(inside folder: PathBytes) -> [PathBytes] {
        offline.withLock { $0.values.filter { $0.isSameOrInside(folder) } }
    }

    /// Whether a drive was recorded as mounted at or inside `folder` (from memory; false before
    /// the records are first read, which the start-up reconcile does).
    func recordsMount(inside folder: PathBytes) -> Bool {
        records.withLock { records in
            records?.keys.contains { $0.isSameOrInside(folder) } ?? false
        }
    }

    /// Decides whether `root` can be reconciled now (`VolumeDecision`) and records the file
    /// system of one that can. Returns the folder its photos are indexed under, and the decision.
    func check(_ root: LibraryRoot, table: MountTable) async throws -> (folder: PathBytes, presence: VolumePresence) {
        let known = try await loaded()
        // A root's record is its shortest: the others are drives mounted inside it.
        let recorded = known.values.filter { $0.root == root.configured }.min { $0.folder.bytes.count < $1.folder.bytes.count }
        let path = root.resolve()
        let folder = path ?? recorded?.folder ?? root.configuredPath
        let presence = try await decide(folder: folder, root: root.configured, recorded: recorded, table: table,
                                        device: path.flatMap(Self.device))
        switch presence {
        case .present(let now, _), .new(let now):
            offline.withLock { $0[root.configured] = nil }
            if now != recorded { await save(now, replacing: recorded) }
        case .offline:
            offline.withLock { $0[root.configured] = folder }
        case .missing:
            offline.withLock { $0[root.configured] = nil }
        }
        return (folder, presence)
    }

    /// Decides for each drive mounted, or recorded as mounted, at a folder inside `root` (present
    /// at `path`): records the ones mounted now, and says which are away, which arrived and
    /// which are back. Mounts in `skipping` (polled file systems, which may hang) are neither
    /// statted nor decided: they are reconciled on their own threads.
    func checkInside(_ root: LibraryRoot, path: PathBytes, table: MountTable,
                     skipping: [PathBytes] = []) async throws -> InsideMounts {
        let known = try await loaded()
        var result = InsideMounts()
        var seen = Set(skipping)
        let notSkipped = table.mounts(inside: path).filter { mount in !skipping.contains { mount.mountPoint.isSameOrInside($0) } }
        for mount in notSkipped where seen.insert(mount.mountPoint).inserted {
            let folder = mount.mountPoint
            let recorded = known[folder]
            let wasAway = offline.withLock { $0[Self.mountKey(folder)] != nil }
            switch try await decide(folder: folder, root: root.configured, recorded: recorded, table: table,
                                    device: Self.device(folder)) {
            case .new(let now):
                if now != recorded { await save(now, replacing: nil) }
                result.arrived.append(folder)
            case .present(let now, let remounted):
                if now != recorded { await save(now, replacing: nil) }
                if remounted || wasAway { result.arrived.append(folder) }
            case .offline(let reason):
                result.away.append((folder, reason, wasAway))
            case .missing:
                continue
            }
        }
        for recorded in known.values where recorded.root == root.configured && recorded.folder.isInside(path)
            && !seen.contains(recorded.folder) && !skipping.contains(where: { recorded.folder.isInside($0) }) {
            let folder = recorded.folder
            let wasAway = offline.withLock { $0[Self.mountKey(folder)] != nil }
            switch try await decide(folder: folder, root: root.configured, recorded: recorded, table: table,
                                    device: Self.device(folder)) {
            case .offline(let reason):
                result.away.append((folder, reason, wasAway))
            case .present:
                continue
            case .new, .missing:
                // No longer a mount point, and nothing of its drive indexed there to keep.
                await delete(folder)
            }
        }
        let away = Set(result.away.map(\.folder))
        offline.withLock { folders in
            for (key, folder) in folders where key.hasPrefix(Self.mountPrefix) && folder.isInside(path)
                && !away.contains(folder) {
                folders[key] = nil
                result.cleared.append(folder)
            }
            for folder in away { folders[Self.mountKey(folder)] = folder }
        }
        return result
    }

    /// Records the file system `root`'s folder is on now as the one its photos are on, whatever
    /// was recorded (the owner said so); the folder, nil when it is not there.
    func accept(_ root: LibraryRoot, table: MountTable) async throws -> PathBytes? {
        let known = try await loaded()
        let recorded = known.values.filter { $0.root == root.configured }.min { $0.folder.bytes.count < $1.folder.bytes.count }
        guard let path = root.resolve(), let device = Self.device(path) else { return nil }
        let decision = VolumeDecision(folder: path, root: root.configured, recorded: nil, photoDevices: [], hasPhotos: false)
        let serial = FileSystemSerial.read(folder: path, mount: table.covering(path))
        if case .new(let now) = decision.decide(table: table, device: device, serial: serial), now != recorded {
            await save(now, replacing: recorded)
        }
        offline.withLock { $0[root.configured] = nil }
        return path
    }

    /// Drops the records of the drives inside `folder` that are away, so the next reconcile
    /// compares their folders too.
    func forgetAway(inside folder: PathBytes) async {
        let away = offlineFolders(inside: folder)
        offline.withLock { folders in
            for (key, value) in folders where key.hasPrefix(Self.mountPrefix) && away.contains(value) { folders[key] = nil }
        }
        for folder in away { await delete(folder) }
    }

    /// Forgets what is known about a root that left the config.
    func forget(_ root: String) async {
        offline.withLock { $0[root] = nil }
        let folders = (try? await loaded())?.values.filter { $0.root == root }.map(\.folder) ?? []
        for folder in folders {
            offline.withLock { $0[Self.mountKey(folder)] = nil }
            await delete(folder)
        }
    }

    private static let mountPrefix = "mount:"

    private static func mountKey(_ folder: PathBytes) -> String {
        mountPrefix + folder.description
    }

    /// `st_dev` of the folder at `path`, nil when it is not there or not a folder.
    private static func device(_ path: PathBytes) -> UInt64? {
        guard case .success(let info) = FileSystem.linkStatus(path), info.kind == .directory else { return nil }
        return info.device
    }

    private func decide(folder: PathBytes, root: String, recorded: StoredVolume?, table: MountTable,
                        device: UInt64?) async throws -> VolumePresence {
        let hasPhotos = try await store.read { try $0.assetCount(under: folder) } > 0
        var photoDevices: Set<UInt64> = []
        if recorded == nil, hasPhotos {
            photoDevices = Set(try await store.read { try $0.indexedFiles(under: folder) }.map(\.stamp.device))
        }
        let serial = device == nil ? FileSystemSerial() : FileSystemSerial.read(folder: folder, mount: table.covering(folder))
        return VolumeDecision(folder: folder, root: root, recorded: recorded, photoDevices: photoDevices,
                              hasPhotos: hasPhotos).decide(table: table, device: device, serial: serial)
    }

    private func loaded() async throws -> [PathBytes: StoredVolume] {
        if let known = records.withLock({ $0 }) { return known }
        let stored = try await store.read { try $0.volumes() }
        let byFolder = Dictionary(stored.map { ($0.folder, $0) }, uniquingKeysWith: { first, _ in first })
        return records.withLock { records in
            if records == nil { records = byFolder }
            return records ?? byFolder
        }
    }

    /// Keeps `now` in memory and in the index. An index that cannot be written keeps the old
    /// record there: the decision is made from memory until photod stops.
    private func save(_ now: StoredVolume, replacing old: StoredVolume?) async {
        records.withLock {
            if let old { $0?[old.folder] = nil }
            $0?[now.folder] = now
        }
        do {
            if let old, old.folder != now.folder { try await store.write { try $0.deleteVolume(folder: old.folder) } }
            try await store.write { try $0.saveVolume(now) }
        } catch {
            logger.debug("the file system of \(now.folder) is not recorded in the index yet: \(error)")
        }
    }

    private func delete(_ folder: PathBytes) async {
        records.withLock { _ = $0?.removeValue(forKey: folder) }
        do {
            try await store.write { try $0.deleteVolume(folder: folder) }
        } catch {
            logger.debug("the file system of \(folder) stays recorded: \(error)")
        }
    }
}
