import PhotoAPI
import Synchronization

/// Where filling the cache ahead of time stands, for Status.
final class PrefillProgress: Sendable {
    private let state: Mutex<(state: PrefillState, done: Int?)>

    /// Off unless `enabled`; then idle until the first pass starts.
    init(enabled: Bool) {
        state = Mutex(enabled ? (.idle, nil) : (.off, nil))
    }

    /// Records the state and, when known, how many assets have their thumbnail.
    func set(_ new: PrefillState, done: Int?) {
        state.withLock { $0 = (new, done ?? $0.done) }
    }

    /// The state and the count.
    var snapshot: (state: PrefillState, done: Int?) { state.withLock { $0 } }
}
