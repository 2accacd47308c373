import FileSystem
import Logging
import Synchronization

/// Polls the roots and mounts inside roots that inotify cannot see into (`RemoteFileSystems`):
/// every `interval` each one's tree is reconciled with the index, through the indexer like any
/// rescan, so moves keep their ids as they do there. Local parts of a tree keep inotify.
///
/// Two loops: one probes each polled mount (`MountProbe`) and marks the ones that do not answer
/// stalled, the other reconciles the ones that answer. A pass runs on the mount's own threads
/// (`Indexer.onPolledFolder`): one that hangs half-way is given up once the mount does not
/// answer a probe, and holds nothing but those threads.
final class RemotePoller: Sendable {
    private let indexer: Indexer
    private let mounts: PolledMounts
    private let state: LibraryState
    private let logger: Logger
    /// Whether a pass went over its budget yet: said once per run as a notice, as a pass near
    /// the budget crosses it back and forth; every pass's time is in the debug log.
    private let warnedOverBudget = Atomic(false)

    /// Passes may take this share of the time at most: the next waits this many times as long
    /// as the last took, when that is longer than the interval, so one huge share cannot keep a
    /// core busy.
    static let budgetFactor = 4

    init(indexer: Indexer, mounts: PolledMounts, state: LibraryState, logger: Logger) {
        self.indexer = indexer
        self.mounts = mounts
        self.state = state
        self.logger = logger
    }

    private var interval: Duration { .seconds(mounts.interval) }

    /// Runs both loops until cancelled.
    func run() async {
        survey()
        await withDiscardingTaskGroup { group in
            group.addTask { await self.probeLoop() }
            group.addTask { await self.pollLoop() }
        }
    }

    /// Reads the mount table and where each root is (`Indexer.surveyPolled`).
    func survey() {
        indexer.surveyPolled()
    }

    /// Every `interval` (and at once): surveys again, then probes each polled folder.
    private func probeLoop() async {
        repeat {
            survey()
            for folder in mounts.all where folder.polled {
                if let answered = await mounts.probe(for: folder.path).answers(folder.path) {
                    indexer.notePolled(folder.path, answers: answered)
                }
            }
        } while (try? await Task.sleep(for: interval)) != nil
    }

    /// Every `interval`, or longer after a pass over budget: reconciles each polled folder that
    /// answers; until cancelled.
    private func pollLoop() async {
        var wait = interval
        while (try? await Task.sleep(for: wait)) != nil {
            let started = ContinuousClock.now
            let stallsBefore = mounts.stallCount
            for folder in mounts.polledTops where !mounts.isStalled(folder.path) {
                // Probed again just before: a mount that stopped answering since the probe loop
                // last looked is not walked into (nil: a probe is out, so it may not answer).
                let answered = await mounts.probe(for: folder.path).answers(folder.path)
                if answered == false { indexer.notePolled(folder.path, answers: false) }
                guard answered == true else { continue }
                do {
                    try await indexer.reconcile(folders: [folder.path])
                } catch is CancellationError {
                    return
                } catch is IndexerStoppedError {
                    return
                } catch {
                    logger.error("polling \(folder.path) in root \(folder.root) failed: \(error); trying again in \(mounts.interval) s")
                }
            }
            let spent = ContinuousClock.now - started
            // A pass held by a mount that stopped answering cost nothing but the wait: once it
            // answers again it is polled at the usual pace, not held back for that wait.
            let waited = mounts.stallCount != stallsBefore
            wait = waited ? interval : max(interval, spent * Self.budgetFactor)
            logger.debug("polled \(mounts.polledTops.count) remote folders in \(spent); next pass in \(wait)")
            if wait > interval, !warnedOverBudget.exchange(true, ordering: .relaxed) {
                logger.notice("""
                    a poll pass took \(spent), over a quarter of remote_poll_interval: the next waits \(wait); \
                    passes are kept to a quarter of the time (each pass's time is logged at debug level)
                    """)
            }
        }
    }
}
