import FileSystem
import Logging
import Synchronization

/// Polls the roots and mounts inside roots that inotify cannot see into (`RemoteFileSystems`):
/// every `interval` each one's tree is reconciled with the index, through the indexer like any
/// rescan, so moves keep their ids as they do there. Local parts of a tree keep inotify.
///
/// Two loops: one probes each polled mount (`MountProbe`) and marks the ones that do not answer
/// stalled, the other reconciles the ones that answer. A pass that hangs in a mount that stopped
/// answering half-way holds only the poll loop and the indexer; the probe loop still says so.
final class RemotePoller: Sendable {
    private let indexer: Indexer
    private let mounts: PolledMounts
    private let state: LibraryState
    private let logger: Logger
    /// One probe per polled folder, each with at most one thread out.
    private let probes = Mutex<[PathBytes: MountProbe]>([:])
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

    /// Every `interval` (and at once): surveys again, then probes each polled folder.
    private func probeLoop() async {
        repeat {
            survey()
            for folder in mounts.all where folder.polled {
                if let answered = await probe(folder.path).answers(folder.path) { note(folder, answers: answered) }
            }
        } while (try? await Task.sleep(for: interval)) != nil
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
                let answered = await probe(folder.path).answers(folder.path)
                if answered == false { note(folder, answers: false) }
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
