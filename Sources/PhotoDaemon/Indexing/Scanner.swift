import FileSystem
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
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

/// Reconciles one root with the disk: walk, plan, read what changed in parallel, write in batches.
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

    func reconcile(root: [UInt8], progress: ScanProgressTracker) async throws -> ScanReport {
        let (report, bulk) = try await reconcileFiles(root: root, progress: progress)
        // Built once the walk's lists are gone, so their memory and the build's never add up.
        if bulk { try await store.endBulkLoad() }
        return report
    }

    /// The reconcile itself; true with the report when it left a bulk load to end.
    private func reconcileFiles(root: [UInt8], progress: ScanProgressTracker) async throws -> (ScanReport, Bool) {
        let clock = ContinuousClock()
        let started = clock.now
        // The walk and the index's list of files are independent: fetch both at once.
        async let listed = store.indexedFiles(under: root)
        let walked = try await pool.runIfActive { [logger] in
            var entries: [DirectoryWalker.Entry] = []
            DirectoryWalker(root: root).walk(
                visit: { entry in
                    entries.append(entry)
                    if entries.count % 1024 == 0 { progress.found(1024) }
                },
                failed: { error in
                    // A folder that is gone is simply empty now (a live rescan of a removed folder).
                    if error.errno != ENOENT { logger.warning("skipping a folder photod cannot read: \(error)") }
                })
            progress.found(entries.count % 1024)
            return entries
        }
        let indexed = try await listed
        // Sidecars are never assets: they are set aside, and each image's stamp records its own.
        var sidecars: [PathKey: FileInfo] = [:]
        var files: [DirectoryWalker.Entry] = []
        files.reserveCapacity(walked.count)
        for entry in walked {
            if Sidecar.isSidecar(entry.path) {
                sidecars[PathKey(entry.path)] = entry.info
            } else {
                files.append(entry)
            }
        }
        let listedSidecars = reader.sources.contains(.sidecar) ? sidecars : [:]
        let found: @Sendable ([UInt8]) -> (path: [UInt8], signature: Int64)? = { path in
            listedSidecars.isEmpty ? nil : Sidecar.find(for: path, in: listedSidecars)
        }
        var plan = ReconcilePlan.make(indexed: indexed, onDisk: files, sidecar: { found($0)?.signature ?? 0 })
        try await adoptUnseenMoves(into: &plan, indexedHere: indexed.count)
        progress.addTotal(plan.reads.count)
        let planned = clock.now
        logger.debug("""
            walked \(String(decoding: root, as: UTF8.self)) in \((planned - started).seconds) s: \(walked.count) files, \
            \(plan.reads.count) to read, \(plan.moves.count) moved, \(plan.removals.count) gone, \(plan.unchanged) unchanged
            """)
        var report = ScanReport(scanned: walked.count, unchanged: plan.unchanged)

        var batch = WriteBatch()
        for move in plan.moves {
            batch.updates.append(WriteBatch.Update(id: move.id, path: move.path, stamp: move.stamp, content: nil))
        }
        batch.removals = plan.removals
        try await commit(batch, into: &report)
        // Many new files (a first index): the store builds its query indexes once, at the end.
        let bulk = try await store.beginBulkLoad(adding: plan.reads.count)
        do {
            try await readAll(plan.reads, sidecars: found, progress: progress, report: &report)
        } catch {
            if bulk { try? await store.endBulkLoad() }
            throw error
        }
        logger.debug("""
            read and wrote \(plan.reads.count) files in \((clock.now - planned).seconds) s \
            (\(report.writeSeconds) s in write transactions)
            """)
        return (report, bulk)
    }

    /// New files that are assets moved in from outside this folder while nobody could see the
    /// move keep their ids. Skipped when every asset is inside this folder (a first index).
    private func adoptUnseenMoves(into plan: inout ReconcilePlan, indexedHere: Int) async throws {
        guard try await store.totals().assets > indexedHere else { return }
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

    /// What a child task of `readAll` finished.
    private enum Step: Sendable {
        case read(WriteBatch, files: Int)
        case committed(CommittedChange?, seconds: Double)
    }

    /// Reads and commits `reads` in the order `ScanPipeline` decides.
    private func readAll(
        _ reads: [ReconcilePlan.Read], sidecars: @escaping @Sendable ([UInt8]) -> (path: [UInt8], signature: Int64)?,
        progress: ScanProgressTracker, report: inout ScanReport
    ) async throws {
        let chunks = stride(from: 0, to: reads.count, by: Self.chunkSize).map {
            Array(reads[$0..<min($0 + Self.chunkSize, reads.count)])
        }
        var pipeline = ScanPipeline(chunkCount: chunks.count, parallelism: parallelism, batchSize: batchSize)
        try await withThrowingTaskGroup(of: Step.self) { group in
            func start(_ actions: [ScanPipeline.Action]) {
                for action in actions {
                    switch action {
                    case .read(let chunk):
                        group.addTask { .read(try await readChunk(chunks[chunk], sidecars: sidecars), files: chunks[chunk].count) }
                    case .commit(let batch):
                        group.addTask {
                            let (change, seconds) = try await timedApply(batch)
                            return .committed(change, seconds: seconds)
                        }
                    }
                }
            }
            start(pipeline.start())
            while let step = try await group.next() {
                switch step {
                case .read(let writes, let files):
                    report.read += files
                    progress.indexed(files)
                    start(pipeline.read(writes))
                case .committed(let change, let seconds):
                    report.writeSeconds += seconds
                    if let change { record(change, in: &report) }
                    start(pipeline.committed())
                }
            }
        }
    }

    /// Reads one chunk of files on the file pool into the writes they call for.
    private func readChunk(
        _ chunk: [ReconcilePlan.Read], sidecars: @escaping @Sendable ([UInt8]) -> (path: [UInt8], signature: Int64)?
    ) async throws -> WriteBatch {
        let outcomes = try await pool.runIfActive { [reader] in
            let opener = SafeOpener()
            return chunk.map { reader.read($0.path, sidecar: .known(sidecars($0.path)), opener: opener) }
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

    private func commit(_ batch: WriteBatch, into report: inout ScanReport) async throws {
        guard !batch.isEmpty else { return }
        let (committed, seconds) = try await timedApply(batch)
        report.writeSeconds += seconds
        if let committed { record(committed, in: &report) }
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
