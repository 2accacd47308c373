import Watcher

/// Reads batches from an inotify stream through a watch set until the actions seen satisfy a
/// condition; a watchdog closes the instance after `timeout`, so a missing event fails instead of
/// hanging. The timeout is long: the unit run's start has held every concurrency thread for 43 s.
struct ActionCollector {
    private var iterator: AsyncStream<[WatchEvent]>.Iterator
    private let set: WatchSet
    private let watchdog: Task<Void, Never>
    /// Every action decoded so far, in order.
    private(set) var actions: [WatchAction] = []
    /// Every raw event read so far, in order.
    private(set) var events: [WatchEvent] = []

    init(inotify: Inotify, set: WatchSet, timeout: Duration = .seconds(90)) {
        iterator = inotify.events().makeAsyncIterator()
        self.set = set
        watchdog = Task {
            try? await Task.sleep(for: timeout)
            inotify.close()
        }
    }

    /// Reads until `done(actions)` holds or the stream ends; returns whether it held.
    mutating func collect(until done: ([WatchAction]) -> Bool) async -> Bool {
        await read { actions, _ in done(actions) }
    }

    private mutating func read(until done: ([WatchAction], [WatchEvent]) -> Bool) async -> Bool {
        while !done(actions, events) {
            guard let batch = await iterator.next() else { return false }
            events += batch
            actions += set.decode(batch, now: .now)
            actions += set.expire(now: .now)
        }
        return true
    }

    /// Reads until `done(events)` holds for the raw events or the stream ends; returns whether it held.
    mutating func collectEvents(until done: ([WatchEvent]) -> Bool) async -> Bool {
        await read { _, events in done(events) }
    }

    /// Reads until every one of `expected` has been seen, in that order (other actions may interleave).
    mutating func collect(inOrder expected: [WatchAction]) async -> Bool {
        await collect { actions in
            var remaining = expected[...]
            for action in actions where action == remaining.first { remaining.removeFirst() }
            return remaining.isEmpty
        }
    }

    /// Stops the watchdog.
    func finish() { watchdog.cancel() }
}
