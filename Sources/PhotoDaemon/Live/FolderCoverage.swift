import FileSystem
import Logging
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
    private let logger: Logger
    /// The budget warning is logged once per run; `Status` keeps saying it.
    private let warnedAboutBudget = Atomic(false)

    init(watches: WatchSet, roots: LibraryRoots, state: LibraryState, pollInterval: Int, logger: Logger) {
        self.watches = watches
        self.roots = roots
        self.state = state
        self.pollInterval = pollInterval
        self.logger = logger
    }

    /// Watches every root that exists now: before the start-up reconcile, so nothing that
    /// changes during it is missed, and again after an overflow.
    func coverRoots() {
        for root in roots.all {
            guard let path = root.resolve() else { continue }
            cover(path)
        }
    }

    /// Watches `folder` and below, then records how each root is covered.
    func cover(_ folder: [UInt8]) {
        _ = watches.watchTree(folder)
        updateCoverage()
    }

    /// Stops watching `folder` and below (its root left the config).
    func uncover(_ folder: [UInt8]) {
        watches.unwatchTree(folder)
        updateCoverage()
    }

    /// Forgets every watch and covers the roots afresh: after an overflow the decoder's view
    /// of the folders may be stale.
    func recoverRoots() {
        watches.reset()
        coverRoots()
    }

    private func updateCoverage() {
        let unwatched = watches.unwatched
        for root in roots.all {
            let path = root.resolve() ?? Array(root.configured.utf8)
            let polled = unwatched.filter { $0 == path || $0.isPathInside(path) }
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
