import FileSystem
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Metadata
import NIOPosix
import Store

/// What one reconcile of one root did.
struct ScanReport: Sendable, Equatable {
    var scanned = 0
    var read = 0
    var inserted = 0
    var updated = 0
    var moved = 0
    var removed = 0
    var unchanged = 0
    /// Time spent in write transactions.
    var writeSeconds = 0.0
    /// Whether the files were written in a bulk load (`Store.beginBulkLoad`).
    var loadedInBulk = false

    /// Assets inserted, updated, moved or removed.
    var changed: Int { inserted + updated + moved + removed }

    static func + (lhs: ScanReport, rhs: ScanReport) -> ScanReport {
        ScanReport(scanned: lhs.scanned + rhs.scanned, read: lhs.read + rhs.read, inserted: lhs.inserted + rhs.inserted,
                   updated: lhs.updated + rhs.updated, moved: lhs.moved + rhs.moved,
                   removed: lhs.removed + rhs.removed, unchanged: lhs.unchanged + rhs.unchanged,
                   loadedInBulk: lhs.loadedInBulk || rhs.loadedInBulk)
    }
}

/// Reconciles one root with the disk: walks it and pages through the index in path order,
/// comparing as they go; reads what changed in parallel, and writes in batches, while the walk
/// goes on. Memory holds a few chunks of each, not the library.
struct Scanner: Sendable {
    let store: Store
    let reader: AssetReader
    let pool: NIOThreadPool
    /// How many files are read at once (the core count).
    let parallelism: Int
    /// Files per write transaction.
    let batchSize: Int
    let logger: Logger
    /// Vanished index rows kept in memory before the reconcile sweeps the index for them instead.
    var vanishedLimit = ReconcileMerge.defaultVanishedLimit

    static let chunkSize = 128

    /// What a child task of `reconcile` finished; `part`: which range of the walk it was for.
    private enum Step: Sendable {
        case walked(part: Int, LibraryWalk.Step)
        case paged(part: Int, [IndexedFile])
        case checked(part: Int, [HeldFile])
        case counted(Int)
        case read(WriteBatch, files: Int)
        case committed(CommittedChange?, seconds: Double)
        /// A page of the sweep (`ReconcilePlan.sweep`).
        case swept(SweptPage)
    }

    /// Makes the index under `root` equal the disk; `beforeListing` is called with each folder
    /// just before the walk lists it (the start-up reconcile watches the folders there).
    /// Folders in `excluding` (where a drive is away) are left as indexed: neither their
    /// indexed files nor what the walk finds there is compared.
    func reconcile(root: [UInt8], progress: ScanProgressTracker,
                   beforeListing: (@Sendable ([UInt8]) -> Void)? = nil,
                   excluding: [[UInt8]] = []) async throws -> ScanReport {
        let (report, bulk) = try await reconcileFiles(root: root, progress: progress, beforeListing: beforeListing,
                                                      excluding: excluding)
        // Built once the reconcile's buffers are gone and their memory given back, so theirs and
        // the build's never add up.
        if bulk {
            ProcessMemory.giveBack()
            try await store.endBulkLoad()
        }
        return report
    }

    /// The reconcile itself; true with the report when it left a bulk load to end.
    private func reconcileFiles(root: [UInt8], progress: ScanProgressTracker, beforeListing: (@Sendable ([UInt8]) -> Void)?,
                                excluding: [[UInt8]]) async throws -> (ScanReport, Bool) {
        let clock = ContinuousClock()
        let started = clock.now
        // The tree is walked in as many ranges as files are read at once, side by side: the walk
        // is a stat call a file, and a reconcile of an unchanged library is nothing but the walk.
        let ranges = try await pool.runIfActive { [parallelism] in
            DirectoryWalker(root: root).split(into: parallelism)
        }
        // With nothing indexed anywhere, no new file can be an asset moved: all are read at once,
        // and the walk need not stat them (each is fstat-ed as it is read).
        let indexedAnywhere = try await store.totals().assets
        let walks = ranges.map {
            LibraryWalk(root: root, range: $0, sidecars: reader.sources.contains(.sidecar),
                        statingFiles: indexedAnywhere > 0, beforeListing: beforeListing, logger: logger)
        }
        var feeds = ranges.map {
            ReconcileFeed(pairing: indexedAnywhere > 0, range: $0, vanishedLimit: vanishedLimit, excluding: excluding)
        }
        var pipeline = ScanPipeline<[ReconcilePlan.Read]>(parallelism: parallelism, batchSize: batchSize)
        var report = ScanReport()
        var settled = false
        var reads = 0
        var moved = 0
        var counting = false
        var counted: Int?
        var nextPart = 0
        var bulk = false
        var sweep = SweepCursor()
        do {
            // A first index loads in bulk from its first file, without waiting for the count.
            if indexedAnywhere == 0 { bulk = try await store.beginFirstIndex() }
            try await withThrowingTaskGroup(of: Step.self) { group in
                func start(_ actions: [ScanPipeline<[ReconcilePlan.Read]>.Action]) {
                    for action in actions {
                        switch action {
                        case .read(let chunk):
                            group.addTask { .read(try await readChunk(chunk), files: chunk.count) }
                        case .commit(let batch):
                            group.addTask {
                                let (change, seconds) = try await timedApply(batch)
                                return .committed(change, seconds: seconds)
                            }
                        }
                    }
                }
                func fetch() {
                    for part in feeds.indices {
                        for fetch in feeds[part].fetches() {
                            group.addTask(operation: task(for: fetch, part: part, walk: walks[part], root: root))
                        }
                    }
                }
                /// The next chunk to read, from each range in turn.
                func takeReads() -> [ReconcilePlan.Read]? {
                    for offset in feeds.indices {
                        let part = (nextPart + offset) % feeds.count
                        if let chunk = feeds[part].takeReads(limit: Self.chunkSize) {
                            nextPart = part + 1
                            return chunk
                        }
                    }
                    return nil
                }
                fetch()
                while let step = try await group.next() {
                    switch step {
                    case .walked(let part, let walked):
                        progress.found(walked.found)
                        feeds[part].walked(walked)
                    case .paged(let part, let rows):
                        feeds[part].paged(rows)
                        if !counting, feeds.allSatisfy({ $0.firstPageRows == 0 }) {
                            // A first index of this root: count its files, so progress has a total
                            // long before the walk that reads them ends.
                            counting = true
                            group.addTask { .counted(try await pool.runIfActive { LibraryWalk.count(root) }) }
                        }
                    case .checked(let part, let verdicts):
                        feeds[part].checked(verdicts)
                    case .counted(let files):
                        if !settled {
                            counted = files
                            progress.addTotal(files)
                            // Nothing under this root was indexed: when these files at least double the
                            // index (a first index), the store builds its query indexes once, at the end.
                            if try await store.beginBulkLoad(adding: files) { bulk = true }
                        }
                    case .read(let writes, let files):
                        report.read += files
                        progress.indexed(files)
                        start(pipeline.read(writes))
                    case .committed(let change, let seconds):
                        report.writeSeconds += seconds
                        if let change { record(change, in: &report) }
                        start(pipeline.committed())
                    case .swept(let page):
                        sweep.read(after: page.after, ended: page.ended)
                        if !page.gone.isEmpty {
                            var writes = WriteBatch()
                            writes.vanished = page.gone
                            start(pipeline.add(writes: writes))
                        }
                        if page.ended { start(pipeline.endInput()) }
                    }
                    while pipeline.wantsInput, let chunk = takeReads() {
                        reads += chunk.count
                        start(pipeline.add(chunk))
                    }
                    for part in feeds.indices where pipeline.wantsInput {
                        guard let found = feeds[part].takeMoves() else { continue }
                        moved += found.count
                        start(pipeline.add(writes: Self.writes(moving: found)))
                    }
                    if !settled, feeds.allSatisfy(\.isExhausted) {
                        settled = true
                        let plan = try await settle(&feeds, root: root, indexedAnywhere: indexedAnywhere)
                        reads += plan.reads.count
                        // The total is known now; a count made at the start is corrected to it.
                        progress.addTotal(reads - (counted ?? 0))
                        report.scanned = feeds.reduce(0) { $0 + $1.found }
                        report.unchanged = plan.unchanged
                        logger.debug("""
                            walked \(String(decoding: root, as: UTF8.self)) in \(ranges.count) parts in \
                            \((clock.now - started).seconds) s: \(report.scanned) files, \(reads) to read, \
                            \(moved + plan.moves.count) moved, \
                            \(plan.sweep ? "too many gone to keep (the index is swept for them)" : "\(plan.vanished.count) gone"), \
                            \(plan.unchanged) unchanged
                            """)
                        for chunk in Self.chunks(plan.reads) { start(pipeline.add(chunk)) }
                        var writes = Self.writes(moving: plan.moves)
                        writes.vanished = plan.vanished
                        start(pipeline.add(writes: writes))
                        if plan.sweep { sweep.start() } else { start(pipeline.endInput()) }
                    }
                    // The sweep reads a page at a time while the writer keeps up, behind every
                    // move handed over before it (a vanished row is removed only if still there).
                    if pipeline.wantsInput, let after = sweep.next() {
                        group.addTask { .swept(try await sweepPage(root: root, after: after, excluding: excluding)) }
                    }
                    fetch()
                }
            }
        } catch {
            if bulk { try? await store.endBulkLoad() }
            throw error
        }
        report.loadedInBulk = bulk
        logger.debug("""
            read and wrote \(reads) files in \((clock.now - started).seconds) s \
            (\(report.writeSeconds) s in write transactions\(bulk ? ", a bulk load" : ""))
            """)
        return (report, bulk)
    }

    /// The child task that fetches `fetch` for the range `part`.
    private func task(for fetch: ReconcileFeed.Fetch, part: Int, walk: LibraryWalk,
                      root: [UInt8]) -> @Sendable () async throws -> Step {
        switch fetch {
        case .walk:
            return { .walked(part: part, try await pool.runIfActive { walk.next(upTo: ReconcileFeed.walkStep) }) }
        case .page(let from, let after):
            return {
                .paged(part: part, try await store.indexedFiles(under: root, from: from, after: after,
                                                                limit: ReconcileFeed.pageSize))
            }
        case .check(let files):
            return {
                let candidates = try await store.indexedFiles(sharingInodeWith: files.map(\.stamp))
                guard !candidates.isEmpty else { return .checked(part: part, files.map { _ in .new }) }
                let finder = MovedFileFinder(candidates: candidates)
                return .checked(part: part, try await pool.runIfActive {
                    let opener = SafeOpener()
                    return files.map { finder.verdict(for: $0, root: root, opener: opener) }
                })
            }
        }
    }

    /// Reads one chunk of files on the file pool into the writes they call for.
    private func readChunk(_ chunk: [ReconcilePlan.Read]) async throws -> WriteBatch {
        let outcomes = try await pool.runIfActive { [reader] in
            let opener = SafeOpener()
            let head = HeadBuffer()
            return chunk.map { file in
                let sidecar = file.sidecar.map { (path: $0, signature: file.stamp.sidecar) }
                return reader.read(file.path, sidecar: .known(sidecar), opener: opener, head: head)
            }
        }
        var writes = WriteBatch()
        for (read, outcome) in zip(chunk, outcomes) { add(outcome, for: read, to: &writes) }
        return writes
    }

    private func add(_ outcome: AssetReader.Outcome, for read: ReconcilePlan.Read, to batch: inout WriteBatch) {
        // A file put in place of the asset at its path is read under that id, unless it is an
        // asset of its own (moved here), which puts the replaced one out of the library.
        let id = read.id ?? read.replaces
        let replaced = read.replaces.flatMap { $0 == id ? nil : $0 }
        switch outcome {
        case .asset(let stamp, let content):
            if let replaced { batch.removals.append(replaced) }
            if let id {
                batch.updates.append(WriteBatch.Update(id: id, path: read.path, stamp: stamp, content: content))
            } else {
                batch.inserts.append(WriteBatch.Insert(path: read.path, stamp: stamp, content: content))
            }
        case .notAnImage:
            batch.removals += [id, replaced].compactMap { $0 }
        case .unreadable(let error):
            if error.meansNoFile {
                // Gone, or no longer a regular file: no longer part of the library.
                batch.removals += [id, replaced].compactMap { $0 }
            } else {
                let path = String(decoding: read.path, as: UTF8.self)
                logger.warning("cannot read \(path), keeping what the index knows: \(error)",
                               metadata: ["path": "\(path)", "asset": "\(read.id ?? "")"])
            }
        }
    }

    /// Commits `batch` on the thread pool; the change and the seconds the transaction took.
    private func timedApply(_ batch: WriteBatch) async throws -> (CommittedChange?, Double) {
        let started = ContinuousClock.now
        let change = try await store.apply(batch)
        return (change, (ContinuousClock.now - started).seconds)
    }

    private func record(_ change: CommittedChange, in report: inout ScanReport) {
        report.inserted += change.inserted.count
        report.updated += change.updated.count
        report.moved += change.moved.count
        report.removed += change.removed.count
    }
}
