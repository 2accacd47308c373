import FileSystem
import Foundation
import NIOPosix
import PhotoTestSupport
import Store
import Watcher
@testable import PhotoDaemon

/// The indexing half of photod, built the way `Daemon` builds it, over a temporary library
/// and index: a real Store, real files, real inotify, and no socket.
final class IndexingRig: Sendable {
    let dir: TemporaryDirectory
    /// The library root, canonical (as the indexer stores paths).
    let library: String
    let store: Store
    let pool: NIOThreadPool
    let state = LibraryState()
    let roots: LibraryRoots
    let inotify: Inotify
    let coverage: FolderCoverage
    let scanner: PhotoDaemon.Scanner
    let indexer: Indexer
    let log = LogRecorder()

    /// A rig whose library holds `files` (relative path: bytes) before anything runs, with
    /// `watchBudget` inotify watches.
    init(files: [String: [UInt8]] = [:], watchBudget: Int = 1000) throws {
        dir = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir.file("library"), withIntermediateDirectories: true)
        library = FileSystem.canonicalPath(PathBytes(dir.file("library")))?.description ?? ""
        for (path, bytes) in files { try dir.write("library/" + path, bytes) }
        store = try Store(path: dir.file("index.sqlite"))
        pool = NIOThreadPool(numberOfThreads: 2)
        pool.start()
        roots = LibraryRoots([LibraryRoot(configured: library)])
        inotify = try Inotify()
        let logger = log.logger()
        coverage = FolderCoverage(watches: WatchSet(inotify: inotify, budget: watchBudget), roots: roots, state: state,
                                  pollInterval: 1, logger: logger)
        scanner = PhotoDaemon.Scanner(store: store, reader: AssetReader(rules: GroupingRules()), pool: pool, parallelism: 2,
                          batchSize: 3, logger: logger)
        indexer = Indexer(roots: roots, scanner: scanner, coverage: coverage, state: state, logger: logger)
    }

    /// The library path of `relative`, as the index and the watcher's actions carry it.
    func path(_ relative: String) -> PathBytes { PathBytes(library + "/" + relative) }

    /// Writes `bytes` at `relative` in the library.
    func write(_ relative: String, _ bytes: [UInt8]) throws {
        try dir.write("library/" + relative, bytes)
    }

    /// Renames `from` to `to`, both relative to the library (folders made as needed).
    func move(_ from: String, _ to: String) throws {
        let target = library + "/" + to
        try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: library + "/" + from, toPath: target)
    }

    /// Every indexed asset by path relative to the library: its id and group.
    func indexed() async throws -> [String: (id: String, group: String)] {
        var result: [String: (id: String, group: String)] = [:]
        for asset in try await store.read({ try $0.allAssets() }) {
            let path = asset.path.description
            result[String(path.dropFirst(library.count + 1))] = (asset.id, asset.groupName)
        }
        return result
    }

    /// Sends `actions` to the indexer the way the watcher does (a `liveEvents` command), without waiting.
    func post(_ actions: [WatchAction]) {
        _ = indexer.queue.post(.liveEvents(FixedActions(actions: actions)))
    }

    /// Sends `actions` as the watcher does and returns once the loop has applied them: a
    /// command sent after them is answered after them. Needs the command loop running.
    func apply(_ actions: [WatchAction]) async throws {
        post(actions)
        try await indexer.reconcile(folders: [])
    }

    /// Runs `body` while the indexer's command loop runs, as `IndexerService` runs it; stops the loop after.
    func withCommandLoop<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        let loop = Task { await indexer.runCommands() }
        defer { loop.cancel() }
        return try await body()
    }

    /// Releases the threads, the index and the inotify instance.
    func close() async {
        inotify.close()
        await store.close()
        try? await pool.shutdownGracefully()
    }

    /// Runs `body` with a new rig, closing it afterwards.
    static func with<T>(files: [String: [UInt8]] = [:], watchBudget: Int = 1000,
                        _ body: (IndexingRig) async throws -> T) async throws -> T {
        try await withClosing(try IndexingRig(files: files, watchBudget: watchBudget), close: { await $0.close() }, body)
    }
}

/// A live-event source that hands over the same actions once.
private struct FixedActions: LiveEventSource {
    let actions: [WatchAction]

    func takeActions() -> [WatchAction] { actions }
}
