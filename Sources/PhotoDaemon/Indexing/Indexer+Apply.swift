import FileSystem
import Logging
import Store
import Watcher

/// Applying what the watcher saw: runs of file actions become one write, folder actions
/// rescan or move the folder's subtree, and an overflow reconciles every root. Run only by
/// the command loop.
extension Indexer {
    /// Applies one drained batch of live actions; never throws, as nobody waits for it.
    func applyLive(_ seen: [WatchAction]) async {
        // Ignored files and folders (`[library] ignore`) are not part of the library: their
        // events are dropped here, before anything is read or watched for them.
        let (actions, unwatch) = scanner.ignore.filter(seen)
        for folder in unwatch { coverage.uncover(folder) }
        guard !actions.isEmpty else { return }
        let overflowed = actions.contains(.overflow)
        do {
            try await applyNow(actions.filter { $0 != .overflow })
            guard overflowed else { return }
            state.overflowed()
            // Events were lost, and the decoder's view of the folders may be stale: cover
            // everything afresh, then compare every root with the disk. Overflows that come
            // meanwhile wait in the watcher's inbox and are one batch, one reconcile, after this.
            logger.warning("the inotify queue overflowed, so events were lost: reconciling every root with the disk")
            coverage.recoverRoots()
            _ = try await run(roots: roots.all, reason: "inotify overflow")
        } catch is UnwritableIndexError {
            // Recorded as the index's problem; the catch-up reconcile finds these changes.
            logger.debug("\(actions.count) file-system changes wait for the index to be writable")
        } catch {
            logger.error("could not apply \(actions.count) file-system changes: \(error); the next reconcile catches up")
        }
    }

    /// Runs of file actions become one write, folder actions rescan or move the folder's subtree.
    private func applyNow(_ actions: [WatchAction]) async throws {
        guard state.indexProblem == nil else {
            // Nothing can be written: the catch-up reconcile finds these changes on disk. New
            // folders are watched now, so what happens in them later is seen too.
            for case .directoryCreated(let folder) in actions { coverage.cover(folder) }
            try await applyRootChanges(actions)
            return
        }
        var files: [WatchAction] = []
        do {
            for action in actions {
                switch action {
                case .fileWritten, .fileLinked, .fileRemoved, .fileMoved, .fileArrived:
                    files.append(action)
                default:
                    try await writeFiles(&files)
                    try await applyFolder(action)
                }
            }
            try await writeFiles(&files)
        } catch {
            // Not lost: the catch-up reconcile records them once there is room.
            guard unwritable(error) != nil else { throw error }
        }
    }

    /// Notes the roots that went away, which needs no write.
    private func applyRootChanges(_ actions: [WatchAction]) async throws {
        for action in actions {
            if case .watchedDirectoryGone = action { try await applyFolder(action) }
        }
    }

    /// When `error` is a write that failed for want of room: records that the index cannot be
    /// written (logged once, shown in `Status`), so the catch-up loop reconciles every root once
    /// there is room, and returns the error to report. Nil for any other error.
    func unwritable(_ error: any Error) -> UnwritableIndexError? {
        guard let reason = Store.outOfSpaceReason(error) else { return nil }
        let problem = """
            the index cannot be written (\(reason)): photod serves what it has and records what it missed once \
            there is room (free disk space, or raise index_size_limit)
            """
        if state.indexProblem == nil {
            logger.error("\(problem); index \(scanner.store.path)")
        }
        state.setIndexProblem(problem)
        return UnwritableIndexError(reason: reason)
    }

    /// Indexes files photod wrote itself (`IndexCommand.ingest`); an index that cannot be
    /// written is thrown, for the caller to report, where live events wait for the catch-up.
    func ingestNow(_ paths: [PathBytes]) async throws {
        if let problem = state.indexProblem { throw UnwritableIndexError(reason: problem) }
        var files = paths.map(WatchAction.fileArrived)
        do {
            try await writeFiles(&files)
        } catch {
            throw unwritable(error) ?? error
        }
    }

    private func writeFiles(_ files: inout [WatchAction]) async throws {
        guard !files.isEmpty else { return }
        let actions = files
        files = []
        let batch = try await LiveUpdater.batch(
            for: actions, store: scanner.store, reader: scanner.reader, files: scanner.pool)
        // Nothing to write (an unchanged file's close): no wait behind the writer's queue.
        guard !batch.isEmpty else { return }
        _ = try await scanner.store.write { try $0.apply(batch) }
    }

    private func applyFolder(_ action: WatchAction) async throws {
        switch action {
        case .directoryCreated(let path):
            // Watch first, then scan: files written before the watch existed are found too.
            coverage.cover(path)
            _ = try await scanner.reconcile(root: path, progress: ScanProgressTracker())
        case .directoryRemoved(let folder):
            // A mount point removed as its drive was unmounted (udisks does): the drive is
            // offline, not its photos deleted, though the mount table may not have been read since.
            if volumes.recordsMount(inside: folder) { try await recheckRootsNow() }
            _ = try await scanner.reconcile(root: folder, progress: ScanProgressTracker(),
                                            excluding: volumes.offlineFolders(inside: folder))
        case .directoryMoved(let from, let to):
            try await moveSubtree(from: from, to: to)
        case .watchedDirectoryGone(let folder):
            guard let root = roots.root(at: folder) else { return }
            // Unmounted with its mount point left behind, the folder is there but empty: the
            // mount table and the recorded file system tell it from a folder that was removed.
            let (path, presence) = try await volumes.check(root, table: MountTable.read().table)
            if case .offline(let reason) = presence {
                await markOffline(root, folder: path, reason: reason)
                return
            }
            state.setRoot(root.configured, .missing,
                          problem: "root \(root.configured) was removed or unmounted; its photos are kept until it returns")
            logger.warning("root \(root.configured) was removed or unmounted: keeping its photos until it returns")
        default:
            // Overflows are coalesced and reconciled by the watcher.
            break
        }
    }

    /// A folder renamed inside the library: every asset below keeps its id.
    private func moveSubtree(from: PathBytes, to: PathBytes) async throws {
        var batch = WriteBatch()
        for file in try await scanner.store.read({ try $0.indexedFiles(under: from) }) {
            let path = file.path.rebased(from: from, to: to)
            batch.updates.append(WriteBatch.Update(id: file.id, path: path, stamp: file.stamp, content: nil))
        }
        _ = try await scanner.store.write { [batch] in try $0.apply(batch) }
        // The folder may have changed while it moved; a reconcile of the new place is cheap.
        _ = try await scanner.reconcile(root: to, progress: ScanProgressTracker())
    }
}
