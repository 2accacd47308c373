import PhotoAPI
import Synchronization

/// What `Status` reports about the daemon and its roots, shared between the indexer and the API.
final class LibraryState: Sendable {
    private struct Snapshot {
        var firstScanDone = false
        var scanning = false
        var rootStates: [String: RootState] = [:]
        var problems: [String: String] = [:]
    }

    private let snapshot = Mutex(Snapshot())
    /// Counters of the running reconcile.
    let progress = ScanProgressTracker()
    /// How roots are kept up to date between reconciles.
    let idleRootState: RootState

    init(idleRootState: RootState) { self.idleRootState = idleRootState }

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

    func setRoot(_ root: String, _ state: RootState, problem: String? = nil) {
        snapshot.withLock {
            $0.rootStates[root] = state
            $0.problems[root] = problem
        }
    }

    func rootState(_ root: String) -> RootState {
        snapshot.withLock { $0.rootStates[root] } ?? .scanning
    }

    /// The daemon state, problems and progress as `Status` reports them.
    var summary: (state: DaemonState, problems: [String], progress: ScanProgress?) {
        let current = snapshot.withLock { $0 }
        let problems = current.problems.keys.sorted().compactMap { current.problems[$0] }
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
