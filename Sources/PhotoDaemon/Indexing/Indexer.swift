import FileSystem
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import NIOPosix
import PhotoAPI
import Store
import Watcher

/// Every change to the index, one at a time: reconciles (start-up, periodic, `Rescan`,
/// overflow, catch-up) and batches of live watcher actions, keeping `LibraryState` current.
///
/// Askers send commands through `queue` and await the answer; `runCommands()`, run by
/// `IndexerService` inside its task group, is the one loop that carries them out in order.
final class Indexer: Sendable {
    /// Files a reconcile walks past before its memory is handed back to the system afterwards.
    static let bigReconcile = 10_000
    /// The configured roots; replaced as a whole when the config is reloaded.
    let roots: LibraryRoots
    let queue = IndexCommandQueue()
    let scanner: Scanner
    let coverage: FolderCoverage
    let state: LibraryState
    let logger: Logger
    /// Which file system each root's photos are on, and which roots are offline.
    let volumes: RootVolumes
    /// The file system of each root and mount inside one, and which are polled or stalled.
    let polled: PolledMounts
    /// Each polled folder's own threads, where its reconciles run (`onPolledFolder`).
    let folderThreads: FolderThreads
    /// Retries a reconcile of every root while the index cannot be written.
    private let catchUp: WriteCatchUp

    init(roots: LibraryRoots, scanner: Scanner, coverage: FolderCoverage, state: LibraryState,
         polled: PolledMounts = PolledMounts(interval: 30), logger: Logger) {
        self.roots = roots
        self.polled = polled
        folderThreads = FolderThreads(threadsPerFolder: scanner.parallelism)
        self.scanner = scanner
        self.coverage = coverage
        self.state = state
        self.logger = logger
        volumes = RootVolumes(store: scanner.store, logger: logger)
        catchUp = WriteCatchUp(state: state)
    }

    // MARK: Asking

    /// Reconciles `only` (or every root) after anything already asked for.
    func reconcile(only: LibraryRoot? = nil, reason: String) async throws -> ScanReport {
        try await queue.send { .reconcile(only: only, reason: reason, reply: $0) }
    }

    /// Reconciles folders inotify cannot watch, each with its subtree; what it compared.
    @discardableResult
    func reconcile(folders: [PathBytes]) async throws -> ScanReport {
        try await queue.send { .reconcileFolders(folders, reply: $0) }
    }

    /// Indexes files photod itself just wrote, after anything already asked for, so that their
    /// writer can answer with the asset; the watcher's events for them change nothing after.
    func ingest(_ paths: [PathBytes]) async throws {
        try await queue.send { .ingest(paths, reply: $0) }
    }

    /// Decides again for every root whether its file system is there (the mount table changed,
    /// or a root is missing or offline): one that went away goes offline, one that came back
    /// (or was mounted again) is watched afresh and reconciled.
    func recheckRoots() async throws {
        try await queue.send { .recheckRoots(reply: $0) }
    }

    /// The owner says the photos of `root`'s offline drives are gone: it is reconciled with
    /// what its folder holds now, on the file system it is on now.
    func forgetAway(_ root: LibraryRoot) async throws -> ScanReport {
        try await queue.send { .forgetAway(root, reply: $0) }
    }

    /// Makes `new` the roots (a config reload): a removed root's photos leave the index, unless
    /// another root still holds them; an added root is watched and scanned. Photos under roots
    /// that stay keep their ids and are not read again.
    func replaceRoots(_ new: [LibraryRoot]) async throws -> RootChange {
        try await queue.send { .replaceRoots(new, reply: $0) }
    }

    /// Caps the index at `bytes` (nil: none), and tries at once to catch up if it was full.
    func limitIndexSize(toBytes bytes: Int?) async throws {
        try await scanner.store.write { try $0.limitSize(toBytes: bytes) }
        catchUp.retryNow()
    }

    // MARK: Running

    /// Carries out the commands in the order they were sent until the queue ends. When its
    /// task is cancelled (shutdown) the queue ends: what was already sent is still answered,
    /// quickly, as a reconcile stops between batches.
    func runCommands() async {
        for await command in queue.commands {
            await execute(command)
        }
    }

    /// While the index cannot be written, reconciles every root with backoff until it can;
    /// runs until cancelled.
    func keepCatchingUp() async throws {
        try await catchUp.run { _ = try await self.reconcile(reason: "catching up after the index could not be written") }
    }

    private func execute(_ command: IndexCommand) async {
        switch command {
        case .reconcile(let only, let reason, let reply):
            await reply.complete { try await self.run(roots: only.map { [$0] } ?? self.roots.all, reason: reason) }
        case .reconcileFolders(let folders, let reply):
            await reply.complete { try await self.reconcileNow(folders: folders) }
        case .replaceRoots(let new, let reply):
            await reply.complete { try await self.replaceRootsNow(new) }
        case .recheckRoots(let reply):
            await reply.complete { try await self.recheckRootsNow() }
        case .forgetAway(let root, let reply):
            await reply.complete { try await self.forgetAwayNow(root) }
        case .ingest(let paths, let reply):
            await reply.complete { try await self.ingestNow(paths) }
        case .liveEvents(let source):
            await source.settle()
            await applyLive(source.takeActions())
        }
    }

    private func replaceRootsNow(_ new: [LibraryRoot]) async throws -> RootChange {
        let old = roots.replace(with: new)
        let removed = old.filter { root in !new.contains { $0.configured == root.configured } }
        let added = new.filter { root in !old.contains { $0.configured == root.configured } }
        let kept = new.map { $0.resolveOrConfigured() }
        for root in removed {
            state.forgetRoot(root.configured)
            await volumes.forget(root.configured)
            let path = root.resolveOrConfigured()
            coverage.uncover(path)
            let store = scanner.store
            let gone: Int
            do {
                var batch = WriteBatch()
                batch.removals = try await store.read { try $0.indexedFiles(under: path) }.filter { file in
                    !kept.contains { file.path.isInside($0) }
                }.map(\.id)
                _ = try await store.write { [batch] in try $0.apply(batch) }
                gone = batch.removals.count
            } catch {
                throw unwritable(error) ?? error
            }
            logger.notice("root \(root.configured) left the config: \(gone) photos left the index")
        }
        let removedPaths = removed.map { $0.resolveOrConfigured() }
        for root in new {
            guard let path = root.resolve() else { continue }
            // Added roots need watches; so does a kept root inside a removed one, whose watches
            // went with it. Other kept roots are still watched: walking them again is wasted.
            let isAdded = added.contains { $0.configured == root.configured }
            let wasInsideRemoved = removedPaths.contains { path.isInside($0) }
            if isAdded || wasInsideRemoved { coverage.cover(path) }
        }
        if !added.isEmpty { _ = try await run(roots: added, reason: "roots added to the config") }
        return RootChange(added: added.map(\.configured), removed: removed.map(\.configured))
    }

    func run(roots targets: [LibraryRoot], reason: String) async throws -> ScanReport {
        let started = ContinuousClock.now
        state.scanStarted()
        defer { state.scanFinished() }
        var total = ScanReport()
        // Which roots and mounts are polled must be known before any is walked (at start-up
        // this runs before the poller's first survey).
        surveyPolled()
        let table = MountTable.read().table
        // A root whose file system does not answer is left as indexed: resolving or walking it
        // would hold this loop, and every root's changes behind it, until it answers.
        for root in targets where !polled.isRootStalled(root.configured) {
            do {
                if let folder = polled.polledRoot(root.configured) {
                    // Every polled mount inside, nested ones too: any of them may hang the walk.
                    let inside = polled.mounts(inside: root.configured).filter(\.polled).map(\.path)
                    total = total + (try await onPolledFolder(folder.path, watching: inside) { scanner in
                        try await self.reconcile(root, table: table, scanner: scanner)
                    })
                } else {
                    total = total + (try await reconcile(root, table: table, scanner: scanner))
                }
            } catch let error as PolledFolderStalledError {
                state.setRoot(root.configured, state.coverage(of: root.configured))
                logger.warning("root \(root.configured) was not reconciled (\(reason)): \(error)")
            }
        }
        let everyRoot = Set(targets.map(\.configured)) == Set(roots.all.map(\.configured))
        if everyRoot, state.indexProblem != nil {
            // Every root now matches the disk: nothing that happened meanwhile is missing.
            state.setIndexProblem(nil)
            logger.notice("the index can be written again: every root is reconciled, nothing missed while it could not be")
        }
        // The walk's listings, the pages and the batches are freed: after a big reconcile, give
        // their memory back, and the pages it read into the store's caches (the next queries
        // need others). A small one frees too little to be worth trimming every arena for.
        if total.scanned >= Self.bigReconcile {
            try? await scanner.store.write { $0.releaseMemory() }
            ProcessMemory.giveBack()
            ProcessMemory.releaseCodeOnceSettled()
        }
        logger.info("""
            reconciled (\(reason)) in \(twoDecimals((ContinuousClock.now - started).seconds)) s: \
            \(total.scanned) files, \(total.read) read, \(total.inserted) new, \(total.updated) updated, \
            \(total.moved) moved, \(total.removed) removed, \(total.unchanged) unchanged
            """)
        return total
    }

    private func reconcileNow(folders: [PathBytes]) async throws -> ScanReport {
        guard state.indexProblem == nil else { return ScanReport() }
        var total = ScanReport()
        do {
            for folder in folders {
                let excluding = volumes.offlineFolders(inside: folder)
                guard let top = polled.polledFolder(containing: folder) else {
                    total = total + (try await scanner.reconcile(root: folder, progress: ScanProgressTracker(),
                                                                 excluding: excluding))
                    continue
                }
                // Unchanged folders are listed by name where the file system's folder times can
                // be trusted, but for a pass in `FolderTimes.fullPassEvery`.
                let times = polled.folderTimes(for: top.path)
                let check = times.check(trusting: times.beginPass(fileSystemTrusted: top.trustsFolderTimes))
                do {
                    total = total + (try await onPolledFolder(top.path) { scanner in
                        try await scanner.reconcile(root: folder, progress: ScanProgressTracker(), excluding: excluding,
                                                    folderUnchanged: check)
                    })
                } catch let error as PolledFolderStalledError {
                    logger.debug("polling \(folder) was given up: \(error)")
                    total.givenUp += 1
                }
            }
        } catch {
            guard unwritable(error) != nil else { throw error }
        }
        return total
    }
}

extension Duration {
    /// The duration in seconds as a Double.
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}

/// A reconcile stopped because the index cannot be written (a full disk, the size limit). The
/// daemon goes on serving the index as it is, and catches up once there is room.
struct UnwritableIndexError: Error, CustomStringConvertible {
    /// SQLite's reason.
    let reason: String

    var description: String {
        "the index cannot be written (\(reason)); photod catches up once there is room"
    }
}
