import FileSystem
import PhotoAPI
import Store

/// Roots and drives that come and go: offline while the file system their photos are on is
/// away (never reconciled), watched afresh and reconciled when it is back. Run only by the
/// command loop.
extension Indexer {
    /// Records the file system `root`'s folder is on now as its own, drops the records of
    /// drives inside it that are away, then reconciles it: what is not there leaves the index.
    func forgetAwayNow(_ root: LibraryRoot) async throws -> ScanReport {
        let table = MountTable.read().table
        guard let path = try await volumes.accept(root, table: table) else {
            await markMissing(root, folder: root.configuredPath)
            return ScanReport()
        }
        if state.rootState(root.configured) == .offline {
            logger.notice("root \(root.configured): the owner said its photos that are away are gone; reconciling it as it is now")
        }
        _ = try await volumes.checkInside(root, path: path, table: table)
        for folder in volumes.offlineFolders(inside: path) {
            state.setMountProblem(folder.description, nil)
        }
        await volumes.forgetAway(inside: path)
        coverage.uncover(path)
        return try await run(roots: [root], reason: "the owner forgot what is away")
    }

    /// Keeps a root's assets while its folder (`folder`, where its photos are indexed) is gone: a
    /// folder that is deleted or briefly gone must not lose ids. A root with no photos indexed
    /// has none to keep: it is said not to exist, with the folder probably meant (a typo).
    func markMissing(_ root: LibraryRoot, folder: PathBytes) async {
        let before = state.rootState(root.configured)
        let count = (try? await scanner.store.read { try $0.assetCount(under: folder) }) ?? 0
        guard count > 0 else {
            let problem = MissingRootHint.problem(for: root.configured)
            state.setRoot(root.configured, .missing, problem: problem)
            if before != .missing { logger.warning("\(problem)") }
            return
        }
        state.setRoot(root.configured, .missing,
                      problem: "root \(root.configured) is missing or not a folder; its photos are kept")
        if before != .missing {
            logger.warning("root \(root.configured) is missing or not a folder: keeping its photos until it returns")
        }
    }

    /// Keeps an offline root's assets, unwatched and not reconciled, until its file system is back.
    func markOffline(_ root: LibraryRoot, folder: PathBytes, reason: String) async {
        let before = state.rootState(root.configured)
        let count = (try? await scanner.store.read { try $0.assetCount(under: folder) }) ?? 0
        state.setRoot(root.configured, .offline, problem: """
            root \(root.configured) is offline: \(reason); its \(count) photos are kept, and it is reconciled \
            when its file system is back
            """)
        // Watches on the folder beneath the mount would report a folder that is not the root's.
        coverage.uncover(folder)
        if before != .offline {
            logger.warning("root \(root.configured) is offline: \(reason); keeping its \(count) photos until it is back")
        }
    }

    func recheckRootsNow() async throws {
        let table = MountTable.read().table
        var back: [LibraryRoot] = []
        for root in roots.all where !polled.isRootStalled(root.configured) {
            let before = state.rootState(root.configured)
            let checked: (folder: PathBytes, presence: VolumePresence)
            if let folder = polled.polledRoot(root.configured) {
                // Its stat may hang: made on the root's own threads, and given up if it does.
                do {
                    checked = try await onPolledFolder(folder.path) { _ in try await self.volumes.check(root, table: table) }
                } catch is PolledFolderStalledError {
                    continue
                }
            } else {
                checked = try await volumes.check(root, table: table)
            }
            let (path, presence) = checked
            switch presence {
            case .missing:
                if before != .missing { await markMissing(root, folder: path) }
            case .offline(let reason):
                await markOffline(root, folder: path, reason: reason)
            case .present(_, let remounted):
                if remounted || before == .offline || before == .missing {
                    coverage.uncover(path)
                    back.append(root)
                } else {
                    try await recheckInside(root, path: path, table: table)
                }
            case .new:
                if before == .offline || before == .missing {
                    coverage.uncover(path)
                    back.append(root)
                }
            }
        }
        guard !back.isEmpty else { return }
        for root in back {
            logger.notice("root \(root.configured) is back: watching and reconciling it")
        }
        do {
            _ = try await run(roots: back, reason: "root back")
        } catch is UnwritableIndexError {
            // The catch-up reconcile covers these roots too, once the index can be written.
            return
        }
    }

    /// Follows the drives mounted inside a root that stays: one that went away goes offline,
    /// one that was mounted (again) is watched and reconciled.
    func recheckInside(_ root: LibraryRoot, path: PathBytes, table: MountTable) async throws {
        // Polled file systems inside are the poller's: a stat of one may hang.
        let inside = try await volumes.checkInside(root, path: path, table: table,
                                                   skipping: polled.polledMounts(inside: root.configured))
        await note(inside, in: root, rewatch: true)
        let away = inside.away.map(\.folder)
        for folder in inside.arrived where state.indexProblem == nil {
            logger.notice("a drive is mounted at \(folder) in root \(root.configured): reconciling it")
            do {
                _ = try await scanner.reconcile(root: folder, progress: ScanProgressTracker(), excluding: away)
            } catch {
                guard unwritable(error) != nil else { throw error }
            }
        }
    }

    /// Says which drives inside `root` are offline (Status, the log) and unwatches them; with
    /// `rewatch`, watches the ones that arrived afresh (a walk that covers the root does not).
    func note(_ inside: RootVolumes.InsideMounts, in root: LibraryRoot, rewatch: Bool) async {
        for (folder, reason, already) in inside.away {
            let name = folder.description
            let count = (try? await scanner.store.read { try $0.assetCount(under: folder) }) ?? 0
            state.setMountProblem(name, """
                the drive mounted at \(name) in root \(root.configured) is offline: \(reason); its \(count) photos are \
                kept, and reconciled when it is back
                """)
            coverage.uncover(folder)
            if !already {
                logger.warning("the drive mounted at \(name) in root \(root.configured) is offline: \(reason); keeping its \(count) photos")
            }
        }
        for folder in inside.cleared { state.setMountProblem(folder.description, nil) }
        guard rewatch else { return }
        for folder in inside.arrived {
            coverage.uncover(folder)
            coverage.cover(folder)
        }
    }
}
