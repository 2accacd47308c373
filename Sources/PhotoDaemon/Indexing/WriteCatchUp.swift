import Synchronization

/// The retry loop behind a full disk: while `LibraryState` says the index cannot be written, it
/// runs a catch-up (a reconcile of every root) after 1 s, then after twice as long each time it
/// fails, up to a minute — or at once when asked, as after a reload that raised the size limit.
/// It never gives up: the changes it records are ones photod must not lose.
final class WriteCatchUp: Sendable {
    private let state: LibraryState
    /// Set by `retryNow`: the next tick tries instead of waiting out the backoff.
    private let retryRequested = Atomic(false)
    /// The longest pause between attempts, in seconds.
    static let maxDelay = 60

    init(state: LibraryState) {
        self.state = state
    }

    /// Makes the loop try at its next tick (within a second).
    func retryNow() {
        retryRequested.store(true, ordering: .releasing)
    }

    /// Ticks every second until cancelled; `attempt` succeeds once the index is caught up.
    func run(_ attempt: @Sendable () async throws -> Void) async throws {
        var delay = 1
        var waited = 0
        while true {
            try await Task.sleep(for: .seconds(1))
            guard state.indexProblem != nil else {
                delay = 1
                waited = 0
                continue
            }
            waited += 1
            let asked = retryRequested.exchange(false, ordering: .acquiringAndReleasing)
            guard asked || waited >= delay else { continue }
            waited = 0
            do {
                try await attempt()
                delay = 1
            } catch {
                // Still no room (or the reconcile failed otherwise): wait longer.
                delay = min(delay * 2, Self.maxDelay)
            }
        }
    }
}
