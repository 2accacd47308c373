import FileSystem
import Logging
import Synchronization

/// Polls the roots and mounts inside roots that inotify cannot see into (`RemoteFileSystems`):
/// every interval (its root's) each one's tree is reconciled with the index, through the
/// indexer like any rescan, so moves keep their ids as they do there. Local parts of a tree
/// keep inotify.
///
/// Two loops: one probes each polled mount (`MountProbe`) and marks the ones that do not answer
/// stalled, the other reconciles each folder that answers when its `PollSchedule` says it is
/// due. A pass runs on the mount's own threads (`Indexer.onPolledFolder`): one that hangs
/// half-way is given up once the mount does not answer a probe, and holds nothing but those
/// threads.
final class RemotePoller: Sendable {
    private let indexer: Indexer
    private let mounts: PolledMounts
    private let state: LibraryState
    private let logger: Logger
    /// Whether a pass went over its budget yet: said once per run as a notice, as a pass near
    /// the budget crosses it back and forth; every pass's time is in the debug log and Status.
    private let warnedOverBudget = Atomic(false)

    init(indexer: Indexer, mounts: PolledMounts, state: LibraryState, logger: Logger) {
        self.indexer = indexer
        self.mounts = mounts
        self.state = state
        self.logger = logger
    }

    /// How often the probe loop looks: the shortest of the roots' intervals, so no polled
    /// folder goes unprobed longer than its own.
    private var probeInterval: Duration { .seconds(mounts.shortestInterval) }

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

    /// Every `probeInterval` (and at once): surveys again, then probes each polled folder.
    private func probeLoop() async {
        repeat {
            survey()
            for folder in mounts.all where folder.polled {
                if let answered = await mounts.probe(for: folder.path).answers(folder.path) {
                    indexer.notePolled(folder.path, answers: answered)
                }
            }
        } while (try? await Task.sleep(for: probeInterval)) != nil
    }

    /// Reconciles each polled folder that answers when the schedule says it is due: every
    /// interval of its root, or longer after a pass over budget; until cancelled.
    private func pollLoop() async {
        var schedule = PollSchedule()
        while true {
            let folders = mounts.polledTops
            schedule.track(folders.map { ($0.path, .seconds(mounts.interval(ofRoot: $0.root))) }, now: .now)
            switch schedule.next(now: .now, longest: probeInterval) {
            case .sleep(let until):
                guard (try? await Task.sleep(until: until, clock: .continuous)) != nil else { return }
            case .poll(let due):
                // In the schedule's order, longest overdue first, not the survey's.
                let byPath = Dictionary(folders.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
                for folder in due.compactMap({ byPath[$0] }) {
                    guard await poll(folder, schedule: &schedule) else { return }
                }
            }
        }
    }

    /// One pass over `folder` unless it is stalled, then its next due time in `schedule`; false
    /// once the poller is cancelled or the indexer stopped.
    private func poll(_ folder: PolledMounts.Folder, schedule: inout PollSchedule) async -> Bool {
        // Probed again just before: a mount that stopped answering since the probe loop last
        // looked is not walked into (nil: a probe is out, so it may not answer).
        let answered = mounts.isStalled(folder.path) ? false : await mounts.probe(for: folder.path).answers(folder.path)
        if answered == false, !mounts.isStalled(folder.path) { indexer.notePolled(folder.path, answers: false) }
        guard answered == true else {
            schedule.skipped(folder.path, now: .now)
            return true
        }
        let started = ContinuousClock.now
        let stallsBefore = mounts.stallCount
        let report: ScanReport
        do {
            report = try await indexer.reconcile(folders: [folder.path])
        } catch is CancellationError {
            return false
        } catch is IndexerStoppedError {
            return false
        } catch {
            let seconds = mounts.interval(ofRoot: folder.root)
            logger.error("polling \(folder.path) in root \(folder.root) failed: \(error); trying again in \(seconds) s")
            schedule.skipped(folder.path, now: .now)
            return true
        }
        let spent = ContinuousClock.now - started
        // A pass held by a mount that stopped answering cost nothing but the wait: once it
        // answers again it is polled at the usual pace, not held back for that wait.
        let waited = mounts.stallCount != stallsBefore
        let delayed = schedule.finished(folder.path, spent: spent, waited: waited, now: .now)
        // A pass given up half-way compared no files worth reporting: Status keeps the last
        // whole pass rather than showing one "over 0 files".
        if report.givenUp == 0 { record(folder, spent: spent, files: report.scanned, delayed: delayed) }
        return true
    }

    /// Keeps the pass over `folder` for Status and logs it; a pass over budget is a notice once a run.
    private func record(_ folder: PolledMounts.Folder, spent: Duration, files: Int, delayed: Duration?) {
        mounts.record(PassCost(endedNanoseconds: PassCost.wallClockNow(), spent: spent, files: files, delayedWait: delayed),
                      for: folder.path)
        let interval = Duration.seconds(mounts.interval(ofRoot: folder.root))
        let listing = mounts.folderTimes(for: folder.path).lastPassUnchangedFolders
            .map { "\($0) unchanged folders listed by name" } ?? "every file stat-ed"
        logger.debug("polled remote folder \(folder.path) in \(spent) over \(files) files (\(listing)); next pass in \(delayed ?? interval)")
        if let delayed, !warnedOverBudget.exchange(true, ordering: .relaxed) {
            logger.notice("""
                a poll pass over \(folder.path) took \(spent), over a quarter of its interval (\(interval)): the next \
                waits \(delayed); passes are kept to a quarter of the time (each pass's time is in photoctl status)
                """)
        }
    }
}
