import PhotoAPI
import Synchronization

/// Live counters of the running reconcile, read by `Status` while the scan writes them.
final class ScanProgressTracker: Sendable {
    private let counters = Mutex(ScanProgress(found: 0, indexed: 0, total: nil))

    func reset() { counters.withLock { $0 = ScanProgress(found: 0, indexed: 0, total: nil) } }
    func found(_ count: Int) { counters.withLock { $0.found += count } }
    func addTotal(_ count: Int) { counters.withLock { $0.total = ($0.total ?? 0) + count } }
    func indexed(_ count: Int) { counters.withLock { $0.indexed += count } }
    var snapshot: ScanProgress { counters.withLock { $0 } }
}
