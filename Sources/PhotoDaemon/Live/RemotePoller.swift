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
/// due. A pass that hangs in a mount that stopped answering half-way holds only the poll loop
/// and the indexer; the probe loop still says so.
final class RemotePoller: Sendable {
    private let indexer: Indexer
    private let mounts: PolledMounts
    private let state: LibraryState
    private let logger: Logger
    /// One probe per polled folder, each with at most one thread out.
    private let probes = Mutex<[PathBytes: MountProbe]>([:])
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

    /// Reads the mount table and where each root is. A root already known to be on a polled
    /// file system is not resolved again (that would stat a mount that may hang); the mount
    /// table alone says whether it is still mounted there.
    func survey() {
        let table = MountTable.read().table
        let paths = indexer.roots.all.map { root -> (root: String, path: PathBytes?) in
            if let known = mounts.rootFolder(root.configured), known.polled,
               let mount = table.covering(known.path), mount.fsType == known.fileSystem,
               state.rootState(root.configured) != .missing, state.rootState(root.configured) != .offline {
                return (root.configured, known.path)
            }
            return (root.configured, root.resolve())
        }
        mounts.survey(paths: paths, table: table)
    }

    /// Every `probeInterval` (and at once): surveys again, then probes each polled folder.
    private func probeLoop() async {
        repeat {
            survey()
            for folder in mounts.all where folder.polled {
                if let answered = await probe(folder.path).answers(folder.path) { note(folder, answers: answered) }
            }
        } while (try? await Task.sleep(for: probeInterval)) != nil
    }

    /// The probe of `path`, made on first use.
    private func probe(_ path: PathBytes) -> MountProbe {
        probes.withLock { probes in
            if let probe = probes[path] { return probe }
            let probe = MountProbe()
            probes[path] = probe
            return probe
        }
    }

    /// Says in Status and the journal when a polled folder stops or starts answering.
    private func note(_ folder: PolledMounts.Folder, answers: Bool) {
        guard mounts.setStalled(folder.path, !answers) else { return }
        let key = folder.path.description
        if answers {
            state.setPollProblem(key, nil)
            logger.notice("\(folder.fileSystem) at \(key) in root \(folder.root) answers again: polling it")
            return
        }
        let problem = """
            the \(folder.fileSystem) file system at \(key) in root \(folder.root) does not answer (a hung server or a \
            stopped FUSE daemon): its photos stay readable as indexed, and it is polled again once it answers
            """
        state.setPollProblem(key, problem)
        logger.warning("\(problem)")
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
        let answered = mounts.isStalled(folder.path) ? false : await probe(folder.path).answers(folder.path)
        if answered == false, !mounts.isStalled(folder.path) { note(folder, answers: false) }
        guard answered == true else {
            schedule.skipped(folder.path, now: .now)
            return true
        }
        let started = ContinuousClock.now
        let stallsBefore = mounts.stallCount
        do {
            try await indexer.reconcile(folders: [folder.path])
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
        await record(folder, spent: spent, delayed: delayed)
        return true
    }

    /// Keeps the pass over `folder` for Status and logs it; a pass over budget is a notice once a run.
    private func record(_ folder: PolledMounts.Folder, spent: Duration, delayed: Duration?) async {
        // The photos indexed under the folder now are what its listing was compared with: the
        // reconcile reports no count of its own to the poller.
        let files = try? await indexer.scanner.store.read { try $0.assetCount(under: folder.path) }
        mounts.record(PassCost(endedNanoseconds: PassCost.wallClockNow(), spent: spent, files: files, delayedWait: delayed),
                      for: folder.path)
        let interval = Duration.seconds(mounts.interval(ofRoot: folder.root))
        logger.debug("polled remote folder \(folder.path) in \(spent) over \(files ?? 0) files; next pass in \(delayed ?? interval)")
        if let delayed, !warnedOverBudget.exchange(true, ordering: .relaxed) {
            logger.notice("""
                a poll pass over \(folder.path) took \(spent), over a quarter of its interval (\(interval)): the next \
                waits \(delayed); passes are kept to a quarter of the time (each pass's time is in photoctl status)
                """)
        }
    }
}
