import FileSystem
import Store

/// A reconcile of one root as a value: told what a piece of work finished, it answers the work
/// to start next, as `ScanPipeline` does for the read phase. The scanner runs the work (walks,
/// index pages, reads, commits, the sweep) and hands each result back; every decision about
/// order and memory is made here, without I/O, so it is tested alone.
struct ReconcileMachine {
    /// Where the reconcile is.
    enum Phase: Equatable {
        /// Walking the ranges and paging the index, comparing as they go.
        case walking
        /// Every range is compared; the merged plan is being completed with moves from elsewhere.
        case settling
        /// More rows vanished than a walk keeps: the index is read a page at a time for them,
        /// from after `after`; `reading` while a page is out.
        case sweeping(after: PathBytes?, reading: Bool)
        /// Nothing more comes in: the last reads and commits finish.
        case draining
    }

    /// A piece of work that finished; `part`: the range of the walk it was for.
    enum Step: Sendable {
        case walked(part: Int, LibraryWalk.Step)
        case paged(part: Int, [IndexedFile])
        case checked(part: Int, [HeldFile])
        /// The count `Action.count` asked for.
        case counted(Int)
        case read(WriteBatch, files: Int)
        case committed(CommittedChange?, seconds: Double)
        case swept(Scanner.SweptPage)
    }

    /// Work to start, in order.
    enum Action {
        /// Fetch for the range `part`.
        case fetch(part: Int, ReconcileFeed.Fetch)
        /// Read these files into writes.
        case read([ReconcilePlan.Read])
        /// Commit this batch; one is in flight at a time.
        case commit(WriteBatch)
        /// Count the root's files, for a progress total.
        case count
        /// Add this many files to the progress total (negative: a count corrected).
        case addToTotal(Int)
        /// A first index of this root: ask the store to load these files in bulk.
        case beginBulkLoad(adding: Int)
        /// Complete the plan with assets moved in from elsewhere (`indexedHere`: index rows
        /// the merge compared), then hand it to `settled(_:)`.
        case settle(ReconcilePlan, indexedHere: Int)
        /// Read the sweep's next page, after `after` (nil: from the first row).
        case sweep(after: PathBytes?)
    }

    /// Files a reader thread takes at a time.
    static let chunkSize = 128

    private(set) var phase = Phase.walking
    /// What the reconcile did so far; `scanned` and `unchanged` are known once settled.
    private(set) var report = ScanReport()
    /// Files handed to the readers, and assets moved without reading, so far.
    private(set) var reads = 0
    private(set) var moved = 0
    private var feeds: [ReconcileFeed]
    private var pipeline: ScanPipeline<[ReconcilePlan.Read]>
    private var countAsked = false
    /// The count made while walking, which the settled total corrects.
    private var counted: Int?
    /// The range whose reads are taken first next time, so every range's readers keep up.
    private var nextPart = 0

    /// A reconcile of the ranges `feeds` (at least one), reading `parallelism` chunks at once
    /// and committing `batchSize` writes at a time.
    init(feeds: [ReconcileFeed], parallelism: Int, batchSize: Int) {
        precondition(!feeds.isEmpty, "a reconcile compares at least one range")
        self.feeds = feeds
        pipeline = ScanPipeline(parallelism: parallelism, batchSize: batchSize)
    }

    /// True once everything is read, written and swept.
    var isFinished: Bool { phase == .draining && pipeline.isDone }

    /// The first fetches.
    mutating func start() -> [Action] { advance() }

    /// `step` finished.
    mutating func handle(_ step: Step) -> [Action] {
        var actions: [Action] = []
        switch step {
        case .walked(let part, let walked):
            feeds[part].walked(walked)
        case .paged(let part, let rows):
            feeds[part].paged(rows)
            if !countAsked, feeds.allSatisfy({ $0.firstPageRows == 0 }) {
                // A first index of this root: its files are counted, so progress has a total
                // long before the walk that reads them ends.
                countAsked = true
                actions.append(.count)
            }
        case .checked(let part, let verdicts):
            feeds[part].checked(verdicts)
        case .counted(let files):
            // Once settled, the plan knows the true total.
            if phase == .walking {
                counted = files
                actions += [.addToTotal(files), .beginBulkLoad(adding: files)]
            }
        case .read(let writes, let files):
            report.read += files
            actions += pipeline.read(writes).map(Self.action)
        case .committed(let change, let seconds):
            report.writeSeconds += seconds
            if let change { report.record(change) }
            actions += pipeline.committed().map(Self.action)
        case .swept(let page):
            guard case .sweeping = phase else { break }
            phase = page.ended ? .draining : .sweeping(after: page.after, reading: false)
            if !page.gone.isEmpty {
                var writes = WriteBatch()
                writes.vanished = page.gone
                actions += pipeline.add(writes: writes).map(Self.action)
            }
            if page.ended { actions += pipeline.endInput().map(Self.action) }
        }
        return actions + advance()
    }

    /// The plan `Action.settle` asked to complete, completed: what it holds is read and written,
    /// and the sweep starts if it calls for one.
    mutating func settled(_ plan: ReconcilePlan) -> [Action] {
        guard phase == .settling else { return [] }
        reads += plan.reads.count
        report.scanned = feeds.reduce(0) { $0 + $1.found }
        report.unchanged = plan.unchanged
        var actions: [Action] = [.addToTotal(reads - (counted ?? 0))]
        for chunk in Self.chunks(plan.reads) { actions += pipeline.add(chunk).map(Self.action) }
        var writes = Scanner.writes(moving: plan.moves)
        writes.vanished = plan.vanished
        actions += pipeline.add(writes: writes).map(Self.action)
        if plan.sweep {
            phase = .sweeping(after: nil, reading: false)
        } else {
            phase = .draining
            actions += pipeline.endInput().map(Self.action)
        }
        return actions + advance()
    }

    /// What every step is followed by: reads and moves handed to the pipeline while it wants
    /// them, the settling once every range is compared, the sweep's next page, the next fetches.
    private mutating func advance() -> [Action] {
        var actions: [Action] = []
        while pipeline.wantsInput, let chunk = takeReads() {
            reads += chunk.count
            actions += pipeline.add(chunk).map(Self.action)
        }
        for part in feeds.indices where pipeline.wantsInput {
            guard let found = feeds[part].takeMoves() else { continue }
            moved += found.count
            actions += pipeline.add(writes: Scanner.writes(moving: found)).map(Self.action)
        }
        if phase == .walking, feeds.allSatisfy(\.isExhausted) {
            phase = .settling
            var merge = feeds[0].takeMerge()
            for part in feeds.indices.dropFirst() { merge.absorb(feeds[part].takeMerge()) }
            let plan = merge.finish()
            // Swept, the merge paired no held file: any may be an asset under this root, moved.
            actions.append(.settle(plan, indexedHere: plan.sweep ? 0 : merge.indexedRows))
        }
        // The sweep reads a page at a time while the writer keeps up, behind every move handed
        // over before it (a vanished row is removed only if still there).
        if pipeline.wantsInput, case .sweeping(let after, reading: false) = phase {
            phase = .sweeping(after: after, reading: true)
            actions.append(.sweep(after: after))
        }
        for part in feeds.indices {
            actions += feeds[part].fetches().map { .fetch(part: part, $0) }
        }
        return actions
    }

    /// The next chunk to read, from each range in turn.
    private mutating func takeReads() -> [ReconcilePlan.Read]? {
        for offset in feeds.indices {
            let part = (nextPart + offset) % feeds.count
            if let chunk = feeds[part].takeReads(limit: Self.chunkSize) {
                nextPart = part + 1
                return chunk
            }
        }
        return nil
    }

    /// `reads` in chunks of `chunkSize`.
    static func chunks(_ reads: [ReconcilePlan.Read]) -> [[ReconcilePlan.Read]] {
        stride(from: 0, to: reads.count, by: chunkSize).map { Array(reads[$0..<min($0 + chunkSize, reads.count)]) }
    }

    private static func action(_ pipelineAction: ScanPipeline<[ReconcilePlan.Read]>.Action) -> Action {
        switch pipelineAction {
        case .read(let chunk): .read(chunk)
        case .commit(let batch): .commit(batch)
        }
    }
}

extension ScanReport {
    /// Counts what a committed batch changed.
    mutating func record(_ change: CommittedChange) {
        inserted += change.inserted.count
        updated += change.updated.count
        moved += change.moved.count
        removed += change.removed.count
    }
}
