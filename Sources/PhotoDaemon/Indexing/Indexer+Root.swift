import FileSystem
import Store

/// One root's part of a reconcile: whether its file system is there, the drives inside it, the
/// walk itself. Run only by the command loop, with the shared scanner or, for a root on a
/// polled file system, one on that root's own threads (`onPolledFolder`).
extension Indexer {
    /// Reconciles `root` with `scanner`, as `run(roots:)` does for each root: a root that is
    /// missing or offline is kept as indexed and reports nothing.
    func reconcile(_ root: LibraryRoot, table: MountTable, scanner: Scanner) async throws -> ScanReport {
        let (path, presence) = try await volumes.check(root, table: table)
        switch presence {
        case .missing:
            await markMissing(root, folder: path)
            return ScanReport()
        case .offline(let reason):
            // Never reconciled: its folder holds none of its photos now.
            await markOffline(root, folder: path, reason: reason)
            return ScanReport()
        case .present(_, let remounted):
            // Watches made on the mount that went away are dead: watched again as walked.
            if remounted { coverage.uncover(path) }
        case .new:
            break
        }
        state.setRoot(root.configured, .scanning)
        // A root not yet watched (at start-up) is watched by its walk, folder by folder, just
        // before each is listed: nothing made in a folder after its listing goes unseen.
        let covering = coverage.needsCovering(path)
        // Polled file systems mounted inside a local root are reconciled on their own threads
        // after it, so one that hangs cannot hold this walk; they are not statted here either.
        let polledInside = polled.polledRoot(root.configured) == nil ? polled.polledMounts(inside: root.configured) : []
        // Drives mounted inside the root: one that is away is left out of the reconcile.
        let inside = try await volumes.checkInside(root, path: path, table: table, skipping: polledInside)
        await note(inside, in: root, rewatch: !covering)
        let coverage = self.coverage
        let watch: (@Sendable (PathBytes) -> Void)? =
            covering ? { @Sendable folder in coverage.watchWhileWalking(folder) } : nil
        var report: ScanReport
        do {
            report = try await scanner.reconcile(root: path, progress: state.progress, beforeListing: watch,
                                                 excluding: inside.away.map(\.folder) + polledInside)
            if covering { coverage.finishCovering(path, walked: true) }
        } catch {
            if covering { coverage.finishCovering(path, walked: false) }
            state.setRoot(root.configured, state.coverage(of: root.configured))
            throw unwritable(error) ?? error
        }
        for mount in polledInside {
            report = report + (try await reconcilePolled(mount, in: root, watch: watch))
        }
        state.setRoot(root.configured, state.coverage(of: root.configured))
        return report
    }

    /// Reconciles the polled file system mounted at `mount` inside a local root on its own
    /// threads; one that does not answer is left as indexed and reports nothing.
    private func reconcilePolled(_ mount: PathBytes, in root: LibraryRoot,
                                 watch: (@Sendable (PathBytes) -> Void)?) async throws -> ScanReport {
        let excluding = volumes.offlineFolders(inside: mount)
        let progress = state.progress
        do {
            return try await onPolledFolder(mount) { scanner in
                try await scanner.reconcile(root: mount, progress: progress, beforeListing: watch, excluding: excluding)
            }
        } catch let error as PolledFolderStalledError {
            logger.warning("the mount at \(mount) in root \(root.configured) was not reconciled: \(error)")
            return ScanReport()
        } catch {
            throw unwritable(error) ?? error
        }
    }
}
