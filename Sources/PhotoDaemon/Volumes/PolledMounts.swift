import FileSystem
import Synchronization

/// Which file system each root and each mount inside a root is on, which of them are polled
/// (`RemoteFileSystems`), and which of those do not answer: kept by `RemotePoller`, read by
/// `Status` without touching the disk, so a hung mount never holds an answer.
final class PolledMounts: Sendable {
    /// A root's folder or a mount inside it, as last surveyed.
    struct Folder: Sendable, Equatable {
        /// The configured root it belongs to.
        var root: String
        var path: PathBytes
        /// The mount's type in /proc/self/mountinfo.
        var fileSystem: String
        /// True for the root's own folder, false for a mount inside it.
        var isRoot: Bool
        /// What is mounted there (mountinfo's source: a server's share, a FUSE daemon's folder).
        var source = ""
        /// Whether it is polled rather than watched.
        var polled: Bool { RemoteFileSystems.isPolled(fileSystem) }
        /// Whether a folder's time there says when its entries changed (`FolderTimes`).
        var trustsFolderTimes: Bool { RemoteFileSystems.trustsFolderTimes(fileSystem, source: source) }
    }

    /// Seconds between polls of a root not in `perRoot` (the config's remote_poll_interval).
    let interval: Int
    /// Seconds between polls of some roots and the mounts inside them, by root as configured
    /// (`[remote_poll_intervals]`).
    let perRoot: [String: Int]
    private let folders = Mutex<[Folder]>([])
    /// Each polled folder's last pass, for Status.
    private let passes = Mutex<[PathBytes: PassCost]>([:])
    private let stalled = Mutex<Set<PathBytes>>([])
    /// How many times a folder stopped answering: a pass during which it grew waited on a mount
    /// rather than worked, and says nothing of what a pass costs.
    private let stalls = Atomic(0)
    /// One probe per polled folder, each with at most one thread out, shared by the poller and
    /// the indexer's watch over a pass.
    private let probes = Mutex<[PathBytes: MountProbe]>([:])
    /// Each polled folder's folder times, kept between its passes.
    private let times = Mutex<[PathBytes: FolderTimes]>([:])

    init(interval: Int, perRoot: [String: Int] = [:]) {
        self.interval = interval
        self.perRoot = perRoot
    }

    /// Seconds between polls of `root` and of the mounts inside it.
    func interval(ofRoot root: String) -> Int {
        perRoot[root] ?? interval
    }

    /// The shortest interval any root may have: how often the probe loop looks, and the
    /// longest the poll loop sleeps before it takes in a folder surveyed meanwhile.
    var shortestInterval: Int {
        perRoot.values.reduce(interval, min)
    }

    /// Surveys `roots` against `table`: each root's folder (`paths`, canonical, nil for a root
    /// that is not there) and the mounts inside it. Pure but for the lock.
    func survey(paths: [(root: String, path: PathBytes?)], table: MountTable) {
        var found: [Folder] = []
        for (root, path) in paths {
            guard let path, let mount = table.covering(path) else { continue }
            found.append(Folder(root: root, path: path, fileSystem: mount.fsType, isRoot: true, source: mount.source))
            var seen: Set<PathBytes> = []
            for inside in table.mounts(inside: path).reversed() where seen.insert(inside.mountPoint).inserted {
                found.append(Folder(root: root, path: inside.mountPoint, fileSystem: inside.fsType, isRoot: false,
                                    source: inside.source))
            }
        }
        folders.withLock { $0 = found.sorted { $0.path.bytes.lexicographicallyPrecedes($1.path.bytes) } }
        let kept = Set(found.map(\.path))
        stalled.withLock { $0.formIntersection(kept) }
        passes.withLock { $0 = $0.filter { kept.contains($0.key) } }
        times.withLock { $0 = $0.filter { kept.contains($0.key) } }
    }

    /// Every folder surveyed.
    var all: [Folder] { folders.withLock { $0 } }

    /// The polled folders to compare with the index, none inside another (a polled root's
    /// reconcile takes in the mounts inside it).
    var polledTops: [Folder] {
        let polled = all.filter(\.polled)
        return polled.filter { folder in !polled.contains { folder.path.isInside($0.path) } }
    }

    /// The polled folder that `path` is in (the outermost), nil when it is on no polled file system.
    func polledFolder(containing path: PathBytes) -> Folder? {
        polledTops.first { path.isSameOrInside($0.path) }
    }

    /// The root's own folder as last surveyed, nil when none was.
    func rootFolder(_ root: String) -> Folder? {
        all.first { $0.root == root && $0.isRoot }
    }

    /// The root's own folder when it is on a polled file system, nil when it is not (or was
    /// not surveyed).
    func polledRoot(_ root: String) -> Folder? {
        rootFolder(root).flatMap { $0.polled ? $0 : nil }
    }

    /// The mounts inside `root`, as last surveyed.
    func mounts(inside root: String) -> [Folder] {
        all.filter { $0.root == root && !$0.isRoot }
    }

    /// The polled mounts inside `root`, none inside another (a reconcile of one takes in the
    /// mounts inside it): what a local root's walk leaves to their own threads.
    func polledMounts(inside root: String) -> [PathBytes] {
        let polled = mounts(inside: root).filter(\.polled).map(\.path)
        return polled.filter { path in !polled.contains { path.isInside($0) } }
    }

    /// The probe of `path`, made on first use.
    func probe(for path: PathBytes) -> MountProbe {
        Self.kept(in: probes, for: path, made: MountProbe.init)
    }

    /// The folder times kept for the polled folder at `path`, made on first use.
    func folderTimes(for path: PathBytes) -> FolderTimes {
        Self.kept(in: times, for: path, made: FolderTimes.init)
    }

    /// The value `map` keeps for `path`, made with `made` and kept on first use.
    private static func kept<Value>(in map: borrowing Mutex<[PathBytes: Value]>, for path: PathBytes,
                                    made: () -> Value) -> Value {
        map.withLock { map in
            if let kept = map[path] { return kept }
            let value = made()
            map[path] = value
            return value
        }
    }

    /// Records whether `path` answers; true when that changed.
    func setStalled(_ path: PathBytes, _ isStalled: Bool) -> Bool {
        let changed = stalled.withLock { set in isStalled ? set.insert(path).inserted : set.remove(path) != nil }
        if changed, isStalled { stalls.add(1, ordering: .relaxed) }
        return changed
    }

    /// Times a folder stopped answering so far.
    var stallCount: Int { stalls.load(ordering: .relaxed) }

    /// Whether the folder of `root` is on a polled file system that did not answer the last probe.
    func isRootStalled(_ root: String) -> Bool {
        rootFolder(root).map { isStalled($0.path) } ?? false
    }

    /// Keeps `pass` as the last of `path`.
    func record(_ pass: PassCost, for path: PathBytes) {
        passes.withLock { $0[path] = pass }
    }

    /// The last pass over `path`; nil before the first, and for a mount its polled root's
    /// pass takes in.
    func lastPass(_ path: PathBytes) -> PassCost? {
        passes.withLock { $0[path] }
    }

    /// Whether `path` did not answer the last probe.
    func isStalled(_ path: PathBytes) -> Bool {
        stalled.withLock { $0.contains(path) }
    }
}
