import FileSystem
import Logging
import PhotoAPI
import Synchronization
import Watcher

/// Keeps the index current from inotify: gathers kernel events for the indexer, emits held
/// rename halves once their grace is over, polls what it cannot watch, and notices missing
/// roots return. Its loops are children of `run()`, so shutdown ends every one of them.
final class LiveWatcher: LiveEventSource {
    private let inotify: Inotify
    private let coverage: FolderCoverage
    private let indexer: Indexer
    private let state: LibraryState
    private let pollInterval: Int
    private let logger: Logger
    /// Kernel events read but not yet handed to the indexer.
    private let inbox = Mutex(Inbox())
    /// True while a `liveEvents` command is queued and has not yet taken the inbox: events that
    /// arrive meanwhile join it instead of queueing another.
    private let drainQueued = Atomic(false)
    /// Wakes the rename-expiry timer when a half is held.
    private let holding: AsyncStream<Void>.Continuation
    private let held: AsyncStream<Void>

    init(inotify: Inotify, coverage: FolderCoverage, indexer: Indexer, state: LibraryState, pollInterval: Int,
         logger: Logger) {
        self.inotify = inotify
        self.coverage = coverage
        self.indexer = indexer
        self.state = state
        self.pollInterval = pollInterval
        self.logger = logger
        (held, holding) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    private var watches: WatchSet { coverage.watches }

    /// Events waiting to be applied; past this many, they are dropped for an overflow (a reconcile).
    static let inboxLimit = 65_536

    /// How long events gather after a file is closed from writing before the indexer takes
    /// them: a file an editor writes and at once renames over a photo then reaches the index
    /// with its rename, as one update of that photo (a temporary name it knows is held longer,
    /// see `SettlingFiles`). Short, since every new photo waits this long (bench/run live).
    static let gathering: Duration = .milliseconds(2)
    /// The longest events gather after the first, however many files keep closing.
    static let longestGathering: Duration = .milliseconds(10)

    /// Events waiting for the indexer, with when the first came and when a file was last closed.
    struct Inbox {
        var events: [WatchEvent] = []
        var first: ContinuousClock.Instant?
        var lastWrite: ContinuousClock.Instant?

        /// When the indexer may take them; nil when there are none.
        var ready: ContinuousClock.Instant? {
            guard let first else { return nil }
            return min(first + LiveWatcher.longestGathering, (lastWrite ?? first) + LiveWatcher.gathering)
        }
    }

    /// Reads inotify events, runs the rename-expiry timer and polls, until the task is cancelled.
    ///
    /// The reader drains the kernel queue into an inbox and asks the indexer, once, to take
    /// it; while the indexer writes one batch the next gathers, so a burst becomes a few large
    /// transactions instead of many small ones. The timer sleeps only while a rename half is held.
    func run() async {
        await withDiscardingTaskGroup { group in
            group.addTask {
                for await events in self.inotify.events() {
                    let now = ContinuousClock.now
                    let written = events.contains { $0.mask & WatchMask.closeWrite != 0 }
                    self.inbox.withLock { waiting in
                        if waiting.events.count + events.count > Self.inboxLimit {
                            waiting.events = [WatchEvent(wd: -1, mask: WatchMask.queueOverflow, cookie: 0, name: [])]
                        } else {
                            waiting.events.append(contentsOf: events)
                        }
                        if waiting.first == nil { waiting.first = now }
                        if written { waiting.lastWrite = now }
                    }
                    self.askIndexerToTake()
                }
            }
            group.addTask {
                // Sleeps until the earliest held item is due, then has the indexer take it. A
                // hold made meanwhile may be due sooner (a rename half while a temporary file
                // waits), so it looks again at least every shortest grace.
                for await _ in self.held {
                    while let deadline = self.watches.nextDeadline {
                        let wake = min(deadline, .now + WatchEventDecoder.shortestGrace)
                        do { try await Task.sleep(until: wake, clock: .continuous) } catch { return }
                        if let due = self.watches.nextDeadline, due <= .now {
                            self.askIndexerToTake()
                            break
                        }
                    }
                }
            }
            group.addTask { await self.poll() }
            group.addTask { await self.followMounts() }
            group.addTask { await RemotePoller(indexer: self.indexer, mounts: self.indexer.polled, state: self.state,
                                               logger: self.logger).run() }
        }
    }

    /// How often the mount table is read for changes.
    static let mountCheckInterval: Duration = .seconds(1)

    /// Reads /proc/self/mountinfo every `mountCheckInterval` and, when it changed (a drive
    /// mounted or unmounted anywhere), has the indexer decide again which roots are there;
    /// until cancelled. The first read counts as a change, for what happened during start-up.
    private func followMounts() async {
        var last: [UInt8]?
        while (try? await Task.sleep(for: Self.mountCheckInterval)) != nil {
            let text = MountTable.read().text
            guard text != last else { continue }
            last = text
            do {
                try await indexer.recheckRoots()
            } catch is CancellationError {
                return
            } catch is IndexerStoppedError {
                return
            } catch {
                logger.error("checking the roots after the mount table changed failed: \(error)")
                last = nil
            }
        }
    }

    private func askIndexerToTake() {
        guard !drainQueued.exchange(true, ordering: .acquiringAndReleasing) else { return }
        if !indexer.queue.post(.liveEvents(self)) {
            logger.debug("file-system changes not applied: the indexer has stopped")
        }
    }

    /// Waits until the last file closed in the inbox is `gathering` old (the first event at
    /// most `longestGathering`), so that what follows a write at once (its rename) is taken with
    /// it. Called by the indexer's loop; in a burst the inbox fills while the indexer writes,
    /// and the wait is over before it starts.
    func settle() async {
        while let ready = inbox.withLock({ $0.ready }), ready > .now {
            do { try await Task.sleep(until: ready, clock: .continuous) } catch { return }
        }
    }

    /// Everything seen since the last call, as actions: the inbox decoded, then the held rename
    /// halves and temporary files whose grace is over. Called by the indexer's loop.
    func takeActions() -> [WatchAction] {
        // Cleared before the inbox is taken: an event that lands after it queues a new take.
        drainQueued.store(false, ordering: .releasing)
        let events = inbox.withLock { waiting in
            defer { waiting = Inbox() }
            return waiting.events
        }
        var actions = events.isEmpty ? [] : watches.decode(events, now: .now)
        actions += watches.expire(now: .now)
        for case .watchedDirectoryGone(let folder) in actions {
            // A root moved away takes its watches along: release them, or its new place would
            // keep reporting under the old root's paths.
            watches.unwatchTree(folder)
        }
        if watches.nextDeadline != nil { holding.yield() }
        return actions
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
        let away: Set<RootState> = [.missing, .offline]
        if indexer.roots.all.contains(where: { away.contains(state.rootState($0.configured)) }) {
            // A missing root's folder may be back; the indexer tells it from an empty mount point.
            try await indexer.recheckRoots()
        }
        let unwatched = watches.unwatched
        if !unwatched.isEmpty {
            try await indexer.reconcile(folders: unwatched)
        }
    }
}
