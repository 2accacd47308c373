import FileSystem
import Foundation
import Logging
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

    /// Assets inserted, updated, moved or removed.
    var changed: Int { inserted + updated + moved + removed }

    static func + (lhs: ScanReport, rhs: ScanReport) -> ScanReport {
        ScanReport(scanned: lhs.scanned + rhs.scanned, read: lhs.read + rhs.read, inserted: lhs.inserted + rhs.inserted,
                   updated: lhs.updated + rhs.updated, moved: lhs.moved + rhs.moved,
                   removed: lhs.removed + rhs.removed, unchanged: lhs.unchanged + rhs.unchanged)
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

    private static let chunkSize = 128

    /// What a child task of `reconcile` finished.
    private enum Step: Sendable {
        case walked(LibraryWalk.Step)
        case paged([IndexedFile])
        case checked(Set<FileStamp>)
        case counted(Int)
        case read(WriteBatch, files: Int)
        case committed(CommittedChange?, seconds: Double)
    }

    func reconcile(root: [UInt8], progress: ScanProgressTracker) async throws -> ScanReport {
        let clock = ContinuousClock()
        let started = clock.now
        let walk = LibraryWalk(root: root, sidecars: reader.sources.contains(.sidecar), logger: logger)
        // With nothing indexed anywhere, no new file can be an asset moved: all are read at once.
        let indexedAnywhere = try await store.totals().assets
        var feed = ReconcileFeed(pairing: indexedAnywhere > 0)
        var pipeline = ScanPipeline<[ReconcilePlan.Read]>(parallelism: parallelism, batchSize: batchSize)
        var report = ScanReport()
        var plan: ReconcilePlan?
        var reads = 0
        var counted: Int?
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
                for fetch in feed.fetches() {
                    switch fetch {
                    case .walk:
                        group.addTask { .walked(try await pool.runIfActive { walk.next(upTo: ReconcileFeed.walkStep) }) }
                    case .page(let after):
                        group.addTask {
                            .paged(try await store.indexedFiles(under: root, after: after, limit: ReconcileFeed.pageSize))
                        }
                    case .check(let stamps):
                        group.addTask {
                            .checked(Set(try await store.indexedFiles(sharingInodeWith: stamps).map(\.stamp.withoutSidecar)))
                        }
                    }
                }
            }
            fetch()
            while let step = try await group.next() {
                switch step {
                case .walked(let walked):
                    progress.found(walked.found)
                    feed.walked(walked)
                case .paged(let rows):
                    let firstPage = feed.firstPageRows == nil
                    feed.paged(rows)
                    if firstPage, rows.isEmpty {
                        // A first index of this root: count its files, so progress has a total
                        // long before the walk that reads them ends.
                        group.addTask { .counted(try await pool.runIfActive { LibraryWalk.count(root) }) }
                    }
                case .checked(let known):
                    feed.checked(known: known)
                case .counted(let files):
                    if plan == nil {
                        counted = files
                        progress.addTotal(files)
                    }
                case .read(let writes, let files):
                    report.read += files
                    progress.indexed(files)
                    start(pipeline.read(writes))
                case .committed(let change, let seconds):
                    report.writeSeconds += seconds
                    if let change { record(change, in: &report) }
                    start(pipeline.committed())
                }
                while pipeline.wantsInput, let chunk = feed.takeReads(limit: Self.chunkSize) {
                    reads += chunk.count
                    start(pipeline.add(chunk))
                }
                if plan == nil, feed.isExhausted {
                    var settled = feed.finish()
                    try await adoptUnseenMoves(into: &settled, indexedHere: feed.merge.indexedRows,
                                               indexedAnywhere: indexedAnywhere)
                    reads += settled.reads.count
                    // The total is known now; a count made at the start is corrected to it.
                    progress.addTotal(reads - (counted ?? 0))
                    report.scanned = feed.found
                    report.unchanged = settled.unchanged
                    logger.debug("""
                        walked \(String(decoding: root, as: UTF8.self)) in \((clock.now - started).seconds) s: \
                        \(feed.found) files, \(reads) to read, \(settled.moves.count) moved, \
                        \(settled.removals.count) gone, \(settled.unchanged) unchanged
                        """)
                    for chunk in stride(from: 0, to: settled.reads.count, by: Self.chunkSize) {
                        start(pipeline.add(Array(settled.reads[chunk..<min(chunk + Self.chunkSize, settled.reads.count)])))
                    }
                    var writes = WriteBatch()
                    writes.updates = settled.moves.map {
                        WriteBatch.Update(id: $0.id, path: $0.path, stamp: $0.stamp, content: nil)
                    }
                    writes.removals = settled.removals
                    start(pipeline.add(writes: writes))
                    start(pipeline.endInput())
                    plan = settled
                }
                fetch()
            }
        }
        logger.debug("""
            read and wrote \(reads) files in \((clock.now - started).seconds) s \
            (\(report.writeSeconds) s in write transactions)
            """)
        return report
    }

    /// New files that are assets moved in from outside this folder while nobody could see the
    /// move keep their ids. Skipped when every asset is inside this folder (a first index).
    private func adoptUnseenMoves(into plan: inout ReconcilePlan, indexedHere: Int, indexedAnywhere: Int) async throws {
        guard indexedAnywhere > indexedHere else { return }
        let reads = plan.reads
        let candidates = try await store.indexedFiles(sharingInodeWith: reads.filter { $0.id == nil }.map(\.stamp))
        guard !candidates.isEmpty else { return }
        let finder = MovedFileFinder(candidates: candidates)
        let adopted = try await pool.runIfActive { () -> [Int: IndexedFile] in
            var adopted: [Int: IndexedFile] = [:]
            var taken: Set<String> = []
            for (index, read) in reads.enumerated() where read.id == nil {
                if let asset = finder.asset(for: read.stamp), taken.insert(asset.id).inserted {
                    adopted[index] = asset
                }
            }
            return adopted
        }
        // Same bytes (the finder checks size and mtime): nothing to read, only the path changes.
        for (index, asset) in adopted.sorted(by: { $0.key > $1.key }) {
            if asset.stamp.sidecar == plan.reads[index].stamp.sidecar {
                let read = plan.reads.remove(at: index)
                plan.moves.append(ReconcilePlan.Move(id: asset.id, path: read.path, stamp: read.stamp))
            } else {
                plan.reads[index].id = asset.id  // the same asset, but its sidecar differs: read it again
            }
        }
    }

    /// Reads one chunk of files on the file pool into the writes they call for.
    private func readChunk(_ chunk: [ReconcilePlan.Read]) async throws -> WriteBatch {
        let outcomes = try await pool.runIfActive { [reader] in
            let opener = SafeOpener()
            return chunk.map { file in
                let sidecar = file.sidecar.map { (path: $0, signature: file.stamp.sidecar) }
                return reader.read(file.path, sidecar: .known(sidecar), opener: opener)
            }
        }
        var writes = WriteBatch()
        for (read, outcome) in zip(chunk, outcomes) { add(outcome, for: read, to: &writes) }
        return writes
    }

    private func add(_ outcome: AssetReader.Outcome, for read: ReconcilePlan.Read, to batch: inout WriteBatch) {
        switch outcome {
        case .asset(let stamp, let content):
            if let id = read.id {
                batch.updates.append(WriteBatch.Update(id: id, path: read.path, stamp: stamp, content: content))
            } else {
                batch.inserts.append(WriteBatch.Insert(path: read.path, stamp: stamp, content: content))
            }
        case .notAnImage:
            if let id = read.id { batch.removals.append(id) }
        case .unreadable(let error):
            if error.errno == ENOENT || error.errno == ENOTDIR || error.errno == ELOOP || error.errno == EINVAL {
                // Gone, or no longer a regular file: no longer part of the library.
                if let id = read.id { batch.removals.append(id) }
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
