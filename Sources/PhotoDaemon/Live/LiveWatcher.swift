import FileSystem
import Logging
import ServiceLifecycle
import Synchronization
import Watcher

/// Keeps the index current from inotify: covers every root with watches, hands decoded
/// actions to the indexer, polls what it cannot watch, and notices missing roots return.
final class LiveWatcher: Sendable {
    let watches: WatchSet
    private let inotify: Inotify
    private let indexer: Indexer
    private let state: LibraryState
    private let pollInterval: Int
    private let logger: Logger
    private let expiryScheduled = Mutex(false)
    /// True from an overflow until its reconcile starts: later overflows need no reconcile of their own.
    private let overflowPending = Mutex(false)
    private let warnedAboutBudget = Mutex(false)

    init(inotify: Inotify, budget: Int, indexer: Indexer, state: LibraryState, pollInterval: Int, logger: Logger) {
        self.inotify = inotify
        watches = WatchSet(inotify: inotify, budget: budget)
        self.indexer = indexer
        self.state = state
        self.pollInterval = pollInterval
        self.logger = logger
    }

    /// Watches every root that exists now; called before the start-up reconcile, so nothing
    /// that changes during it is missed.
    func coverRoots() {
        for root in indexer.roots {
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

    private func updateCoverage() {
        let unwatched = watches.unwatched
        for root in indexer.roots {
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
            if !warnedAboutBudget.withLock({ warned in defer { warned = true }; return warned }) {
                logger.warning("\(problem)")
            }
        }
    }

    /// Events waiting to be applied; past this many, they are dropped for an overflow (a reconcile).
    static let inboxLimit = 65_536

    /// Consumes inotify events until the task is cancelled. A reader drains the kernel queue
    /// into an inbox while the previous batch is applied; the applier then takes everything
    /// waiting at once, so a burst becomes a few large transactions instead of many small ones.
    func consumeEvents() async {
        let (wakeups, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let inbox = EventInbox()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await events in self.inotify.events() {
                    inbox.events.withLock { waiting in
                        if waiting.count + events.count > Self.inboxLimit {
                            waiting = [WatchEvent(wd: -1, mask: WatchMask.queueOverflow, cookie: 0, name: [])]
                        } else {
                            waiting.append(contentsOf: events)
                        }
                    }
                    wake.yield()
                }
                wake.finish()
            }
            group.addTask {
                for await _ in wakeups {
                    let events = inbox.events.withLock { waiting in
                        defer { waiting.removeAll(keepingCapacity: true) }
                        return waiting
                    }
                    guard !events.isEmpty else { continue }
                    await self.apply(self.watches.decode(events, now: .now))
                    self.scheduleExpiry()
                }
            }
        }
    }

    private func apply(_ actions: [WatchAction]) async {
        guard !actions.isEmpty else { return }
        for case .watchedDirectoryGone(let folder) in actions {
            // A root moved away takes its watches along: release them, or its new place would
            // keep reporting under the old root's paths.
            watches.unwatchTree(folder)
        }
        let overflowed = actions.contains(.overflow)
        do {
            try await indexer.apply(actions.filter { $0 != .overflow })
            guard overflowed else { return }
            state.overflowed()
            // A burst can overflow again and again: one reconcile after the latest covers them all.
            guard !overflowPending.withLock({ pending in defer { pending = true }; return pending }) else { return }
            logger.warning("the inotify queue overflowed, so events were lost: reconciling every root with the disk")
            // The decoder's view of the folders may be stale too: cover everything afresh.
            watches.reset()
            coverRoots()
            overflowPending.withLock { $0 = false }
            _ = try await indexer.reconcile(reason: "inotify overflow")
        } catch is UnwritableIndexError {
            // Recorded by the indexer, which catches up once the index can be written.
            logger.debug("\(actions.count) file-system changes wait for the index to be writable")
        } catch {
            logger.error("could not apply \(actions.count) file-system changes: \(error); the next reconcile catches up")
        }
    }

    /// Emits held rename halves once their grace has passed, without polling when nothing is held.
    private func scheduleExpiry() {
        guard let deadline = watches.nextDeadline,
              !expiryScheduled.withLock({ scheduled in defer { scheduled = true }; return scheduled })
        else { return }
        Task {
            try? await Task.sleep(until: deadline, clock: .continuous)
            expiryScheduled.withLock { $0 = false }
            await apply(watches.expire(now: .now))
            scheduleExpiry()
        }
    }

    /// Every poll interval: rescans folders without a watch and brings back missing roots.
    func poll() async throws {
        while true {
            try await Task.sleep(for: .seconds(pollInterval))
            for root in indexer.roots where state.rootState(root.configured) == .missing {
                guard let path = root.resolve() else { continue }
                logger.notice("root \(root.configured) is back: watching and reconciling it")
                cover(path)
                do {
                    _ = try await indexer.reconcile(only: root, reason: "root returned")
                } catch is UnwritableIndexError {
                    // The catch-up reconcile covers this root too, once the index can be written.
                    continue
                }
            }
            let unwatched = watches.unwatched
            if !unwatched.isEmpty {
                try await indexer.reconcile(folders: unwatched)
            }
        }
    }
}

/// Kernel events read but not yet applied.
private final class EventInbox: Sendable {
    let events = Mutex<[WatchEvent]>([])
}
