import FileSystem
import Store
import Testing
@testable import PhotoDaemon

/// A pipeline given chunks 0..<count up front and the end of its input, as a reconcile whose
/// walk finished before the first read would.
private func pipeline(chunks count: Int, parallelism: Int, batchSize: Int) -> (ScanPipeline<Int>, [ScanPipeline<Int>.Action]) {
    var pipeline = ScanPipeline<Int>(parallelism: parallelism, batchSize: batchSize)
    var actions: [ScanPipeline<Int>.Action] = []
    for chunk in 0..<count { actions += pipeline.add(chunk) }
    actions += pipeline.endInput()
    return (pipeline, actions)
}

/// Drives a pipeline the way `Scanner.reconcile` does, finishing work in the order `pick` chooses,
/// and records what was in flight at every step.
private struct PipelineRun {
    var pipeline: ScanPipeline<Int>
    var started: [ScanPipeline<Int>.Action]
    var readsInFlight: [Int] = []
    var commitsInFlight: [WriteBatch] = []
    var committed: [[String]] = []
    var mostReads = 0
    var mostCommits = 0
    /// How many ids each chunk's read yields (chunk i yields "i.0", "i.1", …).
    let perChunk: Int

    init(chunks: Int, parallelism: Int, batchSize: Int, perChunk: Int) {
        (pipeline, started) = PhotoDaemonTests.pipeline(chunks: chunks, parallelism: parallelism, batchSize: batchSize)
        self.perChunk = perChunk
    }

    mutating func take(_ actions: [ScanPipeline<Int>.Action]) {
        for action in actions {
            switch action {
            case .read(let chunk): readsInFlight.append(chunk)
            case .commit(let batch): commitsInFlight.append(batch)
            }
        }
        mostReads = max(mostReads, readsInFlight.count)
        mostCommits = max(mostCommits, commitsInFlight.count)
    }

    /// Runs to the end, finishing commits first when `commitsFirst`, else reads first.
    mutating func run(commitsFirst: Bool) {
        take(started)
        while !readsInFlight.isEmpty || !commitsInFlight.isEmpty {
            if (commitsFirst || readsInFlight.isEmpty), !commitsInFlight.isEmpty {
                let batch = commitsInFlight.removeFirst()
                committed.append(batch.removals)
                take(pipeline.committed())
            } else {
                let chunk = readsInFlight.removeFirst()
                var writes = WriteBatch()
                writes.removals = (0..<perChunk).map { "\(chunk).\($0)" }
                take(pipeline.read(writes))
            }
        }
    }
}

@Suite struct ScanPipelineTests {
    @Test func everyReadIsCommittedOnceInOrderOfCompletion() {
        var run = PipelineRun(chunks: 7, parallelism: 2, batchSize: 5, perChunk: 2)
        run.run(commitsFirst: true)
        #expect(run.pipeline.isDone)
        let all = run.committed.flatMap { $0 }
        #expect(all == (0..<7).flatMap { chunk in (0..<2).map { "\(chunk).\($0)" } })
        // Batches close once they reach the batch size; only the last may be smaller.
        #expect(run.committed.dropLast().allSatisfy { $0.count >= 5 })
    }

    @Test func readsStayWithinParallelismAndOneCommitIsInFlight() {
        var run = PipelineRun(chunks: 20, parallelism: 3, batchSize: 4, perChunk: 4)
        run.run(commitsFirst: false)
        #expect(run.mostReads == 3)
        #expect(run.mostCommits == 1)
        #expect(run.committed.count == 20)
    }

    @Test func aSlowWriterStopsTheReadsOnceTwoBatchesWait() {
        // Every chunk fills a batch; with the writer never finishing, reading stops after one
        // batch commits and two wait full, instead of filling memory with the whole library.
        var (pipeline, started) = PhotoDaemonTests.pipeline(chunks: 50, parallelism: 2, batchSize: 1)
        var pending: [Int] = []
        var commits = 0
        func take(_ actions: [ScanPipeline<Int>.Action]) {
            for action in actions {
                switch action {
                case .read(let chunk): pending.append(chunk)
                case .commit: commits += 1
                }
            }
        }
        take(started)
        var reads = 0
        while let chunk = pending.first {
            pending.removeFirst()
            var writes = WriteBatch()
            writes.removals = ["\(chunk)"]
            take(pipeline.read(writes))
            reads += 1
        }
        #expect(commits == 1)
        #expect(reads <= 4)
        #expect(!pipeline.isDone)
    }

    @Test func inputIsWelcomeOnlyWhileTheReadersAndTheWriterKeepUp() {
        // Chunks arrive as a walk finds them: the walk is asked for more only while fewer than
        // `parallelism` chunks wait to be read and the writer is not two batches behind.
        var pipeline = ScanPipeline<Int>(parallelism: 2, batchSize: 1)
        var reading: [Int] = []
        var commits = 0
        func take(_ actions: [ScanPipeline<Int>.Action]) {
            for action in actions {
                switch action {
                case .read(let chunk): reading.append(chunk)
                case .commit: commits += 1
                }
            }
        }
        var added = 0
        while pipeline.wantsInput, added < 100 {
            take(pipeline.add(added))
            added += 1
        }
        #expect(added == 4)  // two being read, two waiting
        #expect(reading == [0, 1])
        // The writer never finishes: once it is two batches behind, nothing more is welcome.
        while let chunk = reading.first, added < 100 {
            reading.removeFirst()
            var writes = WriteBatch()
            writes.removals = ["\(chunk)"]
            take(pipeline.read(writes))
            while pipeline.wantsInput, added < 100 {
                take(pipeline.add(added))
                added += 1
            }
        }
        #expect(commits == 1)
        #expect(!pipeline.wantsInput)
        #expect(added <= 6)
    }

    @Test func aBatchClosesOnceItHoldsItsBytesWhateverItsCount() {
        // Descriptions can be megabytes of XMP: a batch is bounded by bytes as well as by count.
        var pipeline = ScanPipeline<Int>(parallelism: 1, batchSize: 1000, batchBytes: 10_000)
        var commits: [WriteBatch] = []
        func take(_ actions: [ScanPipeline<Int>.Action]) {
            for case .commit(let batch) in actions { commits.append(batch) }
        }
        take(pipeline.add(0))
        var writes = WriteBatch()
        let big = AssetContent(groupKey: "g", groupSpelling: "g", description: String(repeating: "x", count: 4_000),
                               format: "jpeg")
        writes.inserts = (0..<3).map {
            WriteBatch.Insert(path: PathBytes("/p/\($0)"), stamp: FileStamp(device: 1, inode: UInt64($0), size: 1, mtimeNs: 1),
                              content: big)
        }
        take(pipeline.read(writes))
        #expect(commits.map(\.inserts.count) == [3])
    }

    /// Writes handed over at once (a renamed root's moves and removals) are cut at the batch
    /// size, in the order the writer applies a batch: removals, then updates, then inserts.
    @Test func writesHandedOverAtOnceAreCutAtTheBatchSize() {
        var pipeline = ScanPipeline<Int>(parallelism: 1, batchSize: 3)
        var commits: [WriteBatch] = []
        func take(_ actions: [ScanPipeline<Int>.Action]) {
            for case .commit(let batch) in actions { commits.append(batch) }
        }
        var read = WriteBatch()
        read.removals = ["r0"]
        take(pipeline.add(0))
        take(pipeline.read(read))
        var writes = WriteBatch()
        writes.removals = ["r1", "r2"]
        writes.updates = (0..<5).map {
            WriteBatch.Update(id: "u\($0)", path: PathBytes("/p/\($0)"), stamp: FileStamp(device: 1, inode: 1, size: 1, mtimeNs: 1),
                              content: nil)
        }
        take(pipeline.add(writes: writes))
        take(pipeline.endInput())
        for _ in 0..<10 where !pipeline.isDone { take(pipeline.committed()) }
        #expect(commits.map { $0.removals + $0.updates.map(\.id) } == [["r0", "r1", "r2"], ["u0", "u1", "u2"], ["u3", "u4"]])
    }

    @Test func nothingToReadStartsNothing() {
        let (pipeline, started) = PhotoDaemonTests.pipeline(chunks: 0, parallelism: 2, batchSize: 10)
        #expect(started.isEmpty)
        #expect(pipeline.isDone)
    }

    @Test func readsThatWriteNothingCommitNothing() {
        var run = PipelineRun(chunks: 3, parallelism: 2, batchSize: 10, perChunk: 0)
        run.run(commitsFirst: true)
        #expect(run.committed.isEmpty)
        #expect(run.pipeline.isDone)
    }
}
