import FileSystem
import Logging
import PhotoAPI
import Synchronization
import Watcher

/// Which folders have an inotify watch: covers a folder tree before it is scanned, releases
/// one whose root left the config, and records in `LibraryState` how each root is covered
/// (watched, or partly polled once the watch budget is spent).
///
/// Built before the indexer and the watcher and handed to both, so the indexer can watch a
/// new folder before scanning it without a call that closes a cycle after construction.
final class FolderCoverage: Sendable {
    /// The watches themselves and the event decoder that shares their map.
    let watches: WatchSet
    private let roots: LibraryRoots
    private let state: LibraryState
    private let pollInterval: Int
    /// Ignored folders get no watch.
    private let ignore: LibraryIgnore
    private let logger: Logger
    /// The budget warning is logged once per run; `Status` keeps saying it.
    private let warnedAboutBudget = Atomic(false)
    /// Roots whose tree has been covered (by `cover`, or by a reconcile's walk).
    private let covered = Mutex<Set<PathBytes>>([])

    init(watches: WatchSet, roots: LibraryRoots, state: LibraryState, pollInterval: Int, ignore: LibraryIgnore = .none,
         logger: Logger) {
        self.ignore = ignore
        self.watches = watches
        self.roots = roots
        self.state = state
        self.pollInterval = pollInterval
        self.logger = logger
    }

    /// Watches every root that exists now: before the start-up reconcile, so nothing that
    /// changes during it is missed, and again after an overflow.
    func coverRoots() {
        // An offline root's folder is a mount point without its drive: nothing to watch there.
        for root in roots.all where state.rootState(root.configured) != .offline {
            guard let path = root.resolve() else { continue }
            cover(path)
        }
    }

    /// Watches `folder` and below, then records how each root is covered.
    func cover(_ folder: PathBytes) {
        let ignore = self.ignore
        let roots = ignore.rules.isEmpty ? [] : ignore.resolvedRoots()
        _ = watches.watchTree(folder) { ignore.ignoresFolder($0, roots: roots) }
        covered.withLock { _ = $0.insert(folder) }
        updateCoverage()
    }

    /// Whether `root` still needs covering: the start-up reconcile watches each folder as its
    /// walk reaches it (`watchWhileWalking`), saving a listing of the whole tree before it.
    func needsCovering(_ root: PathBytes) -> Bool {
        !covered.withLock { $0.contains(root) }
    }

    /// Watches one folder just before a reconcile's walk lists it.
    func watchWhileWalking(_ folder: PathBytes) {
        watches.watchFolder(folder)
    }

    /// Ends the covering of `root` by a walk: records how it is covered. When the budget ran out
    /// on the way (the walk goes depth first), it is covered again breadth first, so the watches
    /// go to the upper folders as `cover` gives them. When the walk did not finish (it failed),
    /// the tree is covered the usual way.
    func finishCovering(_ root: PathBytes, walked: Bool) {
        let short = watches.unwatched.contains { $0.isSameOrInside(root) }
        if short || !walked {
            if short { watches.unwatchTree(root) }
            cover(root)
            return
        }
        covered.withLock { _ = $0.insert(root) }
        updateCoverage()
    }

    /// Stops watching `folder` and below (its root left the config).
    func uncover(_ folder: PathBytes) {
        watches.unwatchTree(folder)
        covered.withLock { _ = $0.remove(folder) }
        updateCoverage()
    }

    /// Forgets every watch and covers the roots afresh: after an overflow the decoder's view
    /// of the folders may be stale.
    func recoverRoots() {
        watches.reset()
        covered.withLock { $0.removeAll() }
        coverRoots()
    }

    private func updateCoverage() {
        let unwatched = watches.unwatched
        for root in roots.all {
            let path = root.resolveOrConfigured()
            let polled = unwatched.filter { $0.isSameOrInside(path) }
            if polled.isEmpty {
                state.setCoverage(root.configured, .watching, problem: nil)
                continue
            }
            let problem = """
                the inotify watch limit is reached: \(polled.count) folders under \(root.configured) are polled every \
                \(pollInterval) s instead of watched; raise it with `sysctl fs.inotify.max_user_watches=524288` \
                (or the config's max_watches)
                """
            state.setCoverage(root.configured, .polling, problem: problem)
            if !warnedAboutBudget.exchange(true, ordering: .relaxed) {
                logger.warning("\(problem)")
            }
        }
    }
}
