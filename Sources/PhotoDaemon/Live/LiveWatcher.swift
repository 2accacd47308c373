import FileSystem
import Logging
import Synchronization
import Watcher

/// Keeps the index current from inotify: hands decoded actions to the indexer, emits held
/// rename halves once their grace is over, polls what it cannot watch, and notices missing
/// roots return. Its loops are children of `run()`, so shutdown ends every one of them.
final class LiveWatcher: Sendable {
    private let inotify: Inotify
    private let coverage: FolderCoverage
    private let indexer: Indexer
    private let state: LibraryState
    private let pollInterval: Int
    private let logger: Logger
    /// True from an overflow until its reconcile starts: later overflows need no reconcile of their own.
    private let overflowPending = Atomic(false)

    init(inotify: Inotify, coverage: FolderCoverage, indexer: Indexer, state: LibraryState, pollInterval: Int,
         logger: Logger) {
        self.inotify = inotify
        self.coverage = coverage
        self.indexer = indexer
        self.state = state
        self.pollInterval = pollInterval
        self.logger = logger
    }

    private var watches: WatchSet { coverage.watches }

    /// Events waiting to be applied; past this many, they are dropped for an overflow (a reconcile).
    static let inboxLimit = 65_536

    /// Consumes inotify events and polls until the task is cancelled.
    ///
    /// A reader drains the kernel queue into an inbox while the previous batch is applied; the
    /// applier then takes everything waiting at once, so a burst becomes a few large
    /// transactions instead of many small ones. A timer wakes the applier when a held rename
    /// half's grace is over, and only then, so nothing polls while nothing is held.
    func run() async {
        let (wakeups, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let (held, holding) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let inbox = EventInbox()
        await withDiscardingTaskGroup { group in
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
                    var actions = events.isEmpty ? [] : self.watches.decode(events, now: .now)
                    actions += self.watches.expire(now: .now)
                    await self.apply(actions)
                    if self.watches.nextDeadline != nil { holding.yield() }
                }
                holding.finish()
            }
            group.addTask {
                // Sleeps until the earliest held half is due, then wakes the applier to emit it.
                for await _ in held {
                    guard let deadline = self.watches.nextDeadline else { continue }
                    do { try await Task.sleep(until: deadline, clock: .continuous) } catch { return }
                    wake.yield()
                }
            }
            group.addTask { await self.poll() }
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
            guard !overflowPending.exchange(true, ordering: .acquiringAndReleasing) else { return }
            logger.warning("the inotify queue overflowed, so events were lost: reconciling every root with the disk")
            // The decoder's view of the folders may be stale too: cover everything afresh.
            coverage.recoverRoots()
            overflowPending.store(false, ordering: .releasing)
            _ = try await indexer.reconcile(reason: "inotify overflow")
        } catch is UnwritableIndexError {
            // Recorded by the indexer, which catches up once the index can be written.
            logger.debug("\(actions.count) file-system changes wait for the index to be writable")
        } catch is CancellationError {
            logger.debug("\(actions.count) file-system changes not applied: shutting down")
        } catch is IndexerStoppedError {
            logger.debug("\(actions.count) file-system changes not applied: shutting down")
        } catch {
            logger.error("could not apply \(actions.count) file-system changes: \(error); the next reconcile catches up")
        }
    }

    /// Every poll interval: rescans folders without a watch and brings back missing roots;
    /// until cancelled. A round that fails is logged and the next one tries again.
    private func poll() async {
        while (try? await Task.sleep(for: .seconds(pollInterval))) != nil {
            do {
                try await pollOnce()
            } catch is CancellationError {
                return
            } catch is IndexerStoppedError {
                return
            } catch {
                logger.error("polling the folders inotify cannot watch failed: \(error); trying again in \(pollInterval) s")
            }
        }
    }

    private func pollOnce() async throws {
        for root in indexer.roots.all where state.rootState(root.configured) == .missing {
            guard let path = root.resolve() else { continue }
            logger.notice("root \(root.configured) is back: watching and reconciling it")
            coverage.cover(path)
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

/// Kernel events read but not yet applied.
private final class EventInbox: Sendable {
    let events = Mutex<[WatchEvent]>([])
}
