import PhotoAPI
import Synchronization

/// What `Status` reports about the daemon and its roots, shared between the indexer and the API.
final class LibraryState: Sendable {
    private struct Snapshot {
        var firstScanDone = false
        var scanning = false
        var rootStates: [String: RootState] = [:]
        var coverage: [String: RootState] = [:]
        var problems: [String: String] = [:]
        /// Why the index cannot be written; first among the problems, as it affects every root.
        var indexProblem: String?
        var overflows = 0
    }

    private let snapshot = Mutex(Snapshot())
    /// Counters of the running reconcile.
    let progress = ScanProgressTracker()
    init() {}

    /// How the watcher covers `root` between reconciles: watching, or polling when some of its
    /// folders could not be watched.
    func coverage(of root: String) -> RootState {
        snapshot.withLock { $0.coverage[root] } ?? .watching
    }

    /// Records how the watcher covers `root`; a problem (or nil) explains a polled root.
    func setCoverage(_ root: String, _ coverage: RootState, problem: String?) {
        snapshot.withLock {
            $0.coverage[root] = coverage
            if $0.rootStates[root] != .missing && $0.rootStates[root] != .scanning && $0.rootStates[root] != .offline {
                $0.rootStates[root] = coverage
            }
            $0.problems["watch:" + root] = problem
        }
    }

    /// Drops everything known about a root that left the config.
    func forgetRoot(_ root: String) {
        snapshot.withLock {
            $0.coverage[root] = nil
            $0.rootStates[root] = nil
            $0.problems["watch:" + root] = nil
            $0.problems[root] = nil
        }
    }

    /// Records why the index cannot be written now (nil: it can again).
    func setIndexProblem(_ problem: String?) {
        snapshot.withLock { $0.indexProblem = problem }
    }

    /// Why the index cannot be written now, nil when it can.
    var indexProblem: String? { snapshot.withLock { $0.indexProblem } }

    /// Counts an inotify queue overflow.
    func overflowed() { snapshot.withLock { $0.overflows += 1 } }

    /// inotify queue overflows since start.
    var overflows: Int { snapshot.withLock { $0.overflows } }

    func scanStarted() {
        progress.reset()
        snapshot.withLock { $0.scanning = true }
    }

    func scanFinished() {
        snapshot.withLock {
            $0.scanning = false
            $0.firstScanDone = true
        }
    }

    /// Records why the drive mounted at `folder` inside a root is offline (nil: it is not).
    func setMountProblem(_ folder: String, _ problem: String?) {
        snapshot.withLock { $0.problems["mount:" + folder] = problem }
    }

    /// Records why the polled file system at `folder` is stalled (nil: it answers).
    func setPollProblem(_ folder: String, _ problem: String?) {
        snapshot.withLock { $0.problems["poll:" + folder] = problem }
    }

    func setRoot(_ root: String, _ state: RootState, problem: String? = nil) {
        snapshot.withLock {
            $0.rootStates[root] = state
            $0.problems[root] = problem
        }
    }

    func rootState(_ root: String) -> RootState {
        snapshot.withLock { $0.rootStates[root] } ?? .scanning
    }

    /// The running reconcile's counters; nil when none runs. Cheap: the replies of ListGroups,
    /// ListAssets and Search carry it, so a client can say that its answer may be partial.
    var runningProgress: ScanProgress? {
        snapshot.withLock { $0.scanning } ? progress.snapshot : nil
    }

    /// The daemon state, problems and progress as `Status` reports them.
    var summary: (state: DaemonState, problems: [String], progress: ScanProgress?) {
        let current = snapshot.withLock { $0 }
        let problems = [current.indexProblem].compactMap { $0 }
            + current.problems.keys.sorted().compactMap { current.problems[$0] }
        let state: DaemonState
        if current.scanning {
            state = .scanning
        } else if !current.firstScanDone {
            state = .starting
        } else {
            state = problems.isEmpty ? .ready : .degraded
        }
        return (state, problems, current.scanning ? progress.snapshot : nil)
    }
}
