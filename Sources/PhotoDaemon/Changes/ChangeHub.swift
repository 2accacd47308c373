import Store
import Synchronization

/// Fans committed changes out to subscribers without ever waiting for one.
///
/// Each subscriber has a bounded queue. When it is full the subscriber is too slow (or
/// stuck): its stream ends and it is marked overflowed, so its Subscribe call answers
/// `resync: true` and closes. The indexer and the other subscribers never notice.
final class ChangeHub: Sendable {
    private struct Subscriber {
        let continuation: AsyncStream<CommittedChange>.Continuation
    }

    private struct State {
        var nextID: UInt64 = 1
        var subscribers: [UInt64: Subscriber] = [:]
        var overflowed: Set<UInt64> = []
        var closed = false
    }

    private let state = Mutex(State())
    /// Changes a subscriber may lag behind before it is dropped with a resync.
    let queueLimit: Int

    init(queueLimit: Int) { self.queueLimit = queueLimit }

    /// A new subscription: its id and the stream of changes committed from now on.
    func subscribe() -> (id: UInt64, changes: AsyncStream<CommittedChange>) {
        let (stream, continuation) = AsyncStream.makeStream(
            of: CommittedChange.self, bufferingPolicy: .bufferingOldest(queueLimit))
        let id = state.withLock { state -> UInt64 in
            let id = state.nextID
            state.nextID += 1
            if state.closed {
                continuation.finish()
            } else {
                state.subscribers[id] = Subscriber(continuation: continuation)
            }
            return id
        }
        return (id, stream)
    }

    /// Ends a subscription; true when it ended because its queue overflowed.
    @discardableResult
    func unsubscribe(_ id: UInt64) -> Bool {
        let (subscriber, overflowed) = state.withLock { state in
            (state.subscribers.removeValue(forKey: id), state.overflowed.remove(id) != nil)
        }
        subscriber?.continuation.finish()
        return overflowed
    }

    /// True when the subscription's queue overflowed.
    func didOverflow(_ id: UInt64) -> Bool {
        state.withLock { $0.overflowed.contains(id) }
    }

    /// Hands `change` to every subscriber; never blocks.
    func publish(_ change: CommittedChange) {
        let dropped = state.withLock { state -> [Subscriber] in
            var dropped: [Subscriber] = []
            for (id, subscriber) in state.subscribers {
                if case .dropped = subscriber.continuation.yield(change) {
                    state.overflowed.insert(id)
                    dropped.append(subscriber)
                    state.subscribers[id] = nil
                }
            }
            return dropped
        }
        for subscriber in dropped { subscriber.continuation.finish() }
    }

    /// Number of live subscriptions.
    var count: Int { state.withLock { $0.subscribers.count } }

    /// Ends every subscription (shutdown).
    func close() {
        let all = state.withLock { state -> [Subscriber] in
            state.closed = true
            defer { state.subscribers.removeAll() }
            return Array(state.subscribers.values)
        }
        for subscriber in all { subscriber.continuation.finish() }
    }
}
