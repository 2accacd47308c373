import FileSystem
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LogLines
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
    /// Whether the files were written in a bulk load (`StoreDatabase.beginBulkLoad`).
    var loadedInBulk = false
    /// Folders whose pass was given up because their mount stopped answering: the counts
    /// above then say nothing of them.
    var givenUp = 0

    /// Assets inserted, updated, moved or removed.
    var changed: Int { inserted + updated + moved + removed }

    static func + (lhs: ScanReport, rhs: ScanReport) -> ScanReport {
        ScanReport(scanned: lhs.scanned + rhs.scanned, read: lhs.read + rhs.read, inserted: lhs.inserted + rhs.inserted,
                   updated: lhs.updated + rhs.updated, moved: lhs.moved + rhs.moved,
                   removed: lhs.removed + rhs.removed, unchanged: lhs.unchanged + rhs.unchanged,
                   loadedInBulk: lhs.loadedInBulk || rhs.loadedInBulk, givenUp: lhs.givenUp + rhs.givenUp)
    }
}

/// Reconciles one root with the disk: walks it and pages through the index in path order,
/// comparing as they go; reads what changed in parallel, and writes in batches, while the walk
/// goes on. Memory holds a few chunks of each, not the library.
struct Scanner: Sendable {
    let store: Store
    let reader: AssetReader
    /// Where file work runs: the shared file pool, or a polled folder's own threads.
    var pool: NIOThreadPool
    /// How many files are read at once (the core count).
    let parallelism: Int
    /// Files per write transaction.
    let batchSize: Int
    let logger: Logger
    /// Vanished index rows kept in memory before the reconcile sweeps the index for them instead.
    var vanishedLimit = ReconcileMerge.defaultVanishedLimit
    /// What the walks leave out (`[library] ignore`); an indexed file it names is not found on
    /// disk, so a reconcile removes it.
    var ignore = LibraryIgnore.none
    /// Files that cannot be read (EACCES, EIO) are logged at most 20 a minute: a folder of
    /// thousands of them would otherwise write as many lines and bury the rest of the journal.
    let unreadableFiles = LogBudget(linesPerWindow: 20, window: .seconds(60))

    /// Makes the index under `root` equal the disk; `beforeListing` is called with each folder
    /// just before the walk lists it (the start-up reconcile watches the folders there).
    /// Folders in `excluding` (where a drive is away) are left as indexed: neither their
    /// indexed files nor what the walk finds there is compared.
    /// `folderUnchanged`: asked of each folder before it is listed (`FolderTimes.check`).
    func reconcile(root: PathBytes, progress: ScanProgressTracker,
                   beforeListing: (@Sendable (PathBytes) -> Void)? = nil,
                   excluding: [PathBytes] = [],
                   folderUnchanged: (@Sendable (PathBytes, FileInfo) -> Bool)? = nil) async throws -> ScanReport {
        let (report, bulk, fingerprints) = try await reconcileFiles(
            root: root, progress: progress, beforeListing: beforeListing, excluding: excluding,
            folderUnchanged: folderUnchanged)
        // Built once the reconcile's buffers are gone and their memory given back, so theirs and
        // the build's never add up.
        if bulk {
            ProcessMemory.giveBack()
            try await store.endBulkLoad()
        }
        // After the bulk load's end, which puts back the triggers that keep them true.
        if let fingerprints { await record(fingerprints, root: root) }
        return report
    }

    /// The reconcile itself, run by a `ReconcileMachine`; true with the report when it left a
    /// bulk load to end, and the folders' fingerprints to record when it took them.
    private func reconcileFiles(root: PathBytes, progress: ScanProgressTracker, beforeListing: (@Sendable (PathBytes) -> Void)?,
                                excluding: [PathBytes], folderUnchanged: (@Sendable (PathBytes, FileInfo) -> Bool)?
    ) async throws -> (ScanReport, Bool, FingerprintRecord?) {
        let clock = ContinuousClock()
        let started = clock.now
        // The tree is walked in as many ranges as files are read at once, side by side: the walk
        // is a stat call a file, and a reconcile of an unchanged library is nothing but the walk.
        let ignoreBase = ignore.base(for: root)
        // Excluded folders are never opened: a drive away has nothing of its own there, and a
        // polled mount reconciled on its own threads may hang at the first stat.
        let skipping = Set(excluding)
        let ranges = try await pool.runIfActive { [parallelism, ignore] in
            // A root that is there but cannot be opened (a crashed FUSE daemon's mount answers
            // ENOTCONN, a failing disk EIO) is not empty: walking nothing would remove every
            // photo under it. Only a root that is gone (ENOENT) is walked as empty.
            switch SafeOpener().openFolder(root) {
            case .success(let descriptor): close(descriptor)
            case .failure(let error) where error.errno != ENOENT: throw RootUnreadableError(failure: error)
            case .failure: break
            }
            var walker = DirectoryWalker(root: root)
            walker.ignoring = ignore.rules
            walker.ignoreBase = ignoreBase
            walker.skippingFolders = skipping
            return walker.split(into: parallelism)
        }
        // With nothing indexed anywhere, no new file can be an asset moved: all are read at once,
        // and the walk need not stat them (each is fstat-ed as it is read).
        let indexedAnywhere = try await store.read { try $0.totals() }.assets
        // Fingerprints are checked and taken on a whole local root (not a polled pass, nor one
        // with a drive away inside), whose files the walk stats.
        let fingerprinting = folderUnchanged == nil && excluding.isEmpty && indexedAnywhere > 0
        var matched = MatchedFolders()
        if fingerprinting,
           let outcome = try await checkFolders(root: root, ranges: ranges, ignoreBase: ignoreBase, beforeListing: beforeListing) {
            guard outcome.changed else {
                progress.found(outcome.fileCount)
                return (ScanReport(scanned: outcome.fileCount, unchanged: outcome.fileCount), false, nil)
            }
            matched = try await MatchedFolders(outcome, root: root, store: store)
        }
        let skippingStems = matched.untouched?.ids ?? []
        let unclean = UncleanFolders()
        var complete = true
        let walks = ranges.map {
            LibraryWalk(root: root, range: $0, sidecars: reader.sources.contains(.sidecar),
                        statingFiles: indexedAnywhere > 0, beforeListing: beforeListing, ignoring: ignore.rules,
                        ignoreBase: ignoreBase, skipping: skipping, folderUnchanged: folderUnchanged ?? matched.unchangedFolder,
                        leavingOutFiles: matched.leavingOutFiles(),
                        fingerprintSeed: fingerprinting ? fingerprintSeed : nil, logger: logger)
        }
        var machine = ReconcileMachine(
            feeds: ranges.map {
                ReconcileFeed(pairing: indexedAnywhere > 0, range: $0, vanishedLimit: vanishedLimit, excluding: excluding,
                              rowsLeftOut: !skippingStems.isEmpty)
            },
            parallelism: parallelism, batchSize: batchSize)
        var bulk = false
        do {
            // A first index loads in bulk from its first file, without waiting for the count.
            if indexedAnywhere == 0 { bulk = try await store.write { try $0.beginFirstIndex() } }
            try await withThrowingTaskGroup(of: ReconcileMachine.Step.self) { group in
                var actions = machine.start()
                while true {
                    var next = 0
                    while next < actions.count {
                        let action = actions[next]
                        next += 1
                        switch action {
                        case .fetch(let part, let fetch):
                            group.addTask(operation: task(for: fetch, part: part, walk: walks[part], root: root,
                                                          skippingStems: skippingStems))
                        case .read(let chunk):
                            group.addTask { .read(try await readChunk(chunk, unclean: unclean), files: chunk.count) }
                        case .commit(let batch):
                            group.addTask {
                                let (change, seconds) = try await timedApply(batch)
                                return .committed(change, seconds: seconds)
                            }
                        case .count:
                            group.addTask {
                                .counted(try await pool.runIfActive { [ignore] in
                                    LibraryWalk.count(root, ignoring: ignore.rules, ignoreBase: ignoreBase, skipping: skipping)
                                })
                            }
                        case .addToTotal(let files):
                            progress.addTotal(files)
                        case .beginBulkLoad(let files):
                            // Nothing under this root was indexed: when these files at least double the
                            // index (a first index), the store builds its query indexes once, at the end.
                            if try await store.write({ try $0.beginBulkLoad(adding: files) }) { bulk = true }
                        case .settle(var plan, let indexedHere):
                            try await adoptUnseenMoves(into: &plan, root: root, indexedHere: indexedHere,
                                                       indexedAnywhere: indexedAnywhere)
                            actions += machine.settled(plan)
                            logWalk(root, parts: ranges.count, seconds: (clock.now - started).seconds, plan: plan,
                                    machine: machine)
                        case .sweep(let after):
                            group.addTask { .swept(try await sweepPage(root: root, after: after, excluding: excluding)) }
                        }
                    }
                    guard let step = try await group.next() else { break }
                    // Given up (a polled mount stopped answering, or shutdown): nothing more is
                    // started, so work that comes back late writes nothing after it.
                    try Task.checkCancellation()
                    switch step {
                    case .walked(_, let walked):
                        progress.found(walked.found)
                        if !walked.unreadable.isEmpty {
                            unclean.add(folders: walked.unreadable)
                            complete = false
                        }
                    case .read(_, let files): progress.indexed(files)
                    default: break
                    }
                    actions = machine.handle(step)
                }
            }
        } catch {
            if bulk { try? await store.endBulkLoad() }
            throw error
        }
        if !machine.isFinished {
            logger.error("the reconcile of \(root) stopped in \(machine.phase) with work left")
        }
        var report = machine.report
        report.loadedInBulk = bulk
        // The matched folders the walk left out are compared, as a whole.
        let leftOut = matched.filesLeftOut
        report.scanned += leftOut
        report.unchanged += leftOut
        logger.debug("""
            read and wrote \(machine.reads) files in \((clock.now - started).seconds) s \
            (\(report.writeSeconds) s in write transactions\(bulk ? ", a bulk load" : ""))
            """)
        guard fingerprinting, machine.isFinished else { return (report, bulk, nil) }
        let taken = walks.flatMap { $0.takeFingerprints() } + matched.fingerprints.map { ($0.key, $0.value) }
        return (report, bulk, FingerprintRecord(folders: taken, unclean: unclean.all, complete: complete))
    }

    private func logWalk(_ root: PathBytes, parts: Int, seconds: Double, plan: ReconcilePlan, machine: ReconcileMachine) {
        logger.debug("""
            walked \(root) in \(parts) parts in \(seconds) s: \
            \(machine.report.scanned) files, \(machine.reads) to read, \(machine.moved + plan.moves.count) moved, \
            \(plan.sweep ? "too many gone to keep (the index is swept for them)" : "\(plan.vanished.count) gone"), \
            \(plan.unchanged) unchanged
            """)
    }

    /// The child task that fetches `fetch` for the range `part`.
    private func task(for fetch: ReconcileFeed.Fetch, part: Int, walk: LibraryWalk, root: PathBytes,
                      skippingStems: [Int64]) -> @Sendable () async throws -> ReconcileMachine.Step {
        switch fetch {
        case .walk:
            return { .walked(part: part, try await pool.runIfActive { walk.next(upTo: ReconcileFeed.walkStep) }) }
        case .page(let from, let after):
            return {
                .paged(part: part, try await store.read {
                    try $0.indexedFiles(under: root, from: from, after: after, limit: ReconcileFeed.pageSize,
                                        skippingStems: skippingStems)
                })
            }
        case .check(let files):
            return {
                let candidates = try await store.read { try $0.indexedFiles(sharingInodeWith: files.map(\.stamp)) }
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
    private func readChunk(_ chunk: [ReconcilePlan.Read], unclean: UncleanFolders) async throws -> WriteBatch {
        if let delay = ReadDelayKnob.perChunk { try await Task.sleep(for: delay) }
        let outcomes = try await pool.runIfActive { [reader] in
            let opener = SafeOpener()
            let head = HeadBuffer()
            return chunk.map { file in
                let sidecar = file.sidecar.map { (path: $0, signature: file.stamp.sidecar) }
                return reader.read(file.path, sidecar: .known(sidecar), opener: opener, head: head)
            }
        }
        var writes = WriteBatch()
        for (read, outcome) in zip(chunk, outcomes) { add(outcome, for: read, to: &writes, unclean: unclean) }
        return writes
    }

    private func add(_ outcome: AssetReader.Outcome, for read: ReconcilePlan.Read, to batch: inout WriteBatch,
                     unclean: UncleanFolders) {
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
                unclean.add(file: read.path)
                let path = read.path.description
                unreadableFiles.log(logger, .warning, "cannot read \(path), keeping what the index knows: \(error)",
                                    metadata: ["path": "\(path)", "asset": "\(read.id ?? "")"])
            }
        }
    }

    /// Commits `batch` on the thread pool; the change and the seconds the transaction took.
    private func timedApply(_ batch: WriteBatch) async throws -> (CommittedChange?, Double) {
        guard !batch.isEmpty else { return (nil, 0) }
        let started = ContinuousClock.now
        let change = try await store.write { try $0.apply(batch) }
        return (change, (ContinuousClock.now - started).seconds)
    }
}

/// A reconcile's root could not be opened for a reason other than being gone: it is left as
/// indexed, as nothing can be said of what it holds.
struct RootUnreadableError: Error, CustomStringConvertible {
    /// The failed open.
    let failure: FileSystemError

    var description: String { "\(failure); its photos are kept as indexed until it can be read" }
}
