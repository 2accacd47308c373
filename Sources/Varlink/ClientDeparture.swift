import Synchronization

/// The relay's word that a client is gone (hung up, reset), for the task serving its connection.
///
/// The channel allows half-closure, so the end of the relay's pipe only says "no more calls": a
/// client that shut down its sending side still reads its replies. One that is gone must have its
/// channel closed at once instead, and its running call cancelled; the relay says so here.
final class ClientDeparture: Sendable {
    private struct State {
        var gone = false
        var action: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    /// Runs `action` when the client is gone: at once if it already is, else on the relay thread.
    func whenGone(_ action: @escaping @Sendable () -> Void) {
        let gone = self.state.withLock { state in
            if !state.gone {
                state.action = action
            }
            return state.gone
        }
        if gone {
            action()
        }
    }

    /// Records that the client is gone and runs the action set for it, once.
    func depart() {
        let action = self.state.withLock { state in
            state.gone = true
            defer { state.action = nil }
            return state.action
        }
        action?()
    }
}
