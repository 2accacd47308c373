import FileSystem
import Synchronization

/// Work in a polled folder (`RemoteFileSystems`) that stopped answering was given up: the
/// command that asked for it goes on, and the folder is polled again once it answers.
struct PolledFolderStalledError: Error, CustomStringConvertible {
    /// The polled folder that does not answer.
    let folder: PathBytes

    var description: String {
        "the file system at \(folder) does not answer; its photos stay as indexed until it does"
    }
}

/// Reconciles in polled folders (NFS, SMB, FUSE…) that cannot hold the command loop: the work
/// runs on the folder's own threads, and is given up as soon as the folder stops answering.
extension Indexer {
    /// Runs `body` on `folder`'s own threads (`FolderThreads`), handing it a scanner whose file
    /// work runs there too, while `folder` and every folder in `watching` are probed; when one
    /// does not answer, the work is cancelled and left to end whenever its calls come back, and
    /// this throws `PolledFolderStalledError` at once. So a mount that hangs mid-pass holds
    /// nothing but its own threads.
    func onPolledFolder<T: Sendable>(_ folder: PathBytes, watching: [PathBytes] = [],
                                     _ body: @escaping @Sendable (Scanner) async throws -> T) async throws -> T {
        let probed = [folder] + watching.filter { $0 != folder }
        if let stalled = probed.first(where: polled.isStalled) { throw PolledFolderStalledError(folder: stalled) }
        guard let executor = folderThreads.executor(for: folder) else { throw PolledFolderStalledError(folder: folder) }
        var local = scanner
        local.pool = executor.pool
        let work = Task(executorPreference: executor) { [local] in try await body(local) }
        let outcome = FirstOutcome<T>()
        let watch = Task { [self] in
            guard let stalled = await firstToStall(of: probed) else { return }
            work.cancel()
            folderThreads.retire(folder, stillOut: Task { _ = await work.result })
            outcome.resume(with: .failure(PolledFolderStalledError(folder: stalled)))
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                outcome.set(continuation)
                Task {
                    let result = await work.result
                    watch.cancel()
                    outcome.resume(with: result)
                }
            }
        } onCancel: {
            work.cancel()
        }
    }

    /// Probes `folders` every `MountProbe.timeout` until one does not answer (returned, and said
    /// in Status and the journal) or the task is cancelled (nil).
    private func firstToStall(of folders: [PathBytes]) async -> PathBytes? {
        while (try? await Task.sleep(for: MountProbe.timeout)) != nil {
            for folder in folders {
                if polled.isStalled(folder) { return folder }
                // Nil: a probe is already out (the poller's); its answer lands in isStalled.
                if await polled.probe(for: folder).answers(folder) == false {
                    guard !Task.isCancelled else { return nil }
                    notePolled(folder, answers: false)
                    return folder
                }
            }
        }
        return nil
    }

    /// Reads the mount table and where each root is, for `polled`. A root already known to be on
    /// a polled file system is not resolved again (that would stat a mount that may hang); the
    /// mount table alone says whether it is still mounted there.
    func surveyPolled() {
        let table = MountTable.read().table
        let paths = roots.all.map { root -> (root: String, path: PathBytes?) in
            if let known = polled.polledRoot(root.configured),
               let mount = table.covering(known.path), mount.fsType == known.fileSystem,
               state.rootState(root.configured) != .missing, state.rootState(root.configured) != .offline {
                return (root.configured, known.path)
            }
            return (root.configured, root.resolve())
        }
        polled.survey(paths: paths, table: table)
    }

    /// Says in Status and the journal when the polled folder at `path` stops or starts answering.
    func notePolled(_ path: PathBytes, answers: Bool) {
        guard let folder = polled.all.first(where: { $0.path == path }),
              polled.setStalled(path, !answers) else { return }
        let key = path.description
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
}

/// A continuation resumed once, by whichever comes first: the work's end or its stall.
private final class FirstOutcome<T: Sendable>: Sendable {
    private let state = Mutex<(waiting: CheckedContinuation<T, Error>?, early: Result<T, Error>?)>((nil, nil))

    /// Keeps the continuation, resuming it at once if an outcome came before it.
    func set(_ continuation: CheckedContinuation<T, Error>) {
        let early = state.withLock { state -> Result<T, Error>? in
            guard let early = state.early else {
                state.waiting = continuation
                return nil
            }
            return early
        }
        if let early { continuation.resume(with: early) }
    }

    /// Resumes with `result` the first time; later calls do nothing.
    func resume(with result: Result<T, Error>) {
        let waiting = state.withLock { state -> CheckedContinuation<T, Error>? in
            guard state.early == nil else { return nil }
            state.early = result
            defer { state.waiting = nil }
            return state.waiting
        }
        waiting?.resume(with: result)
    }
}
