import Store
import Synchronization

/// What a subscription is told: a committed change, or that what its app may see changed.
enum HubEvent: Sendable, Equatable {
    case change(CommittedChange)
    case visibility(Visibility)

    /// The change, when this event is one.
    var change: CommittedChange? {
        if case .change(let change) = self { return change }
        return nil
    }
}

/// Fans committed changes out to subscribers without ever waiting for one.
///
/// Each subscriber has a bounded queue. When it is full the subscriber is too slow (or
/// stuck): its stream ends and it is marked overflowed, so its Subscribe call answers
/// `resync: true` and closes. The indexer and the other subscribers never notice.
final class ChangeHub: Sendable {
    private struct Subscriber {
        /// The subscribing app, told about its own visibility changes; nil for the owner.
        let app: String?
        let continuation: AsyncStream<HubEvent>.Continuation
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

    /// A new subscription by `app` (nil: the owner): its id and the stream of events from now on.
    func subscribe(app: String? = nil) -> (id: UInt64, changes: AsyncStream<HubEvent>) {
        let (stream, continuation) = AsyncStream.makeStream(
            of: HubEvent.self, bufferingPolicy: .bufferingOldest(queueLimit))
        let id = state.withLock { state -> UInt64 in
            let id = state.nextID
            state.nextID += 1
            if state.closed {
                continuation.finish()
            } else {
                state.subscribers[id] = Subscriber(app: app, continuation: continuation)
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
        deliver(.change(change), to: nil)
    }

    /// Tells `app`'s subscriptions that it may now see `visibility`; never blocks.
    func publish(visibility: Visibility, to app: String) {
        deliver(.visibility(visibility), to: app)
    }

    /// Yields `event` to every subscriber, or only to `app`'s; a full queue drops its subscriber.
    private func deliver(_ event: HubEvent, to app: String?) {
        let dropped = state.withLock { state -> [Subscriber] in
            var dropped: [Subscriber] = []
            for (id, subscriber) in state.subscribers where app == nil || subscriber.app == app {
                if case .dropped = subscriber.continuation.yield(event) {
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
