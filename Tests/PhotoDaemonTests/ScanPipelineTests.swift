import Store
import Testing
@testable import PhotoDaemon

/// Drives a pipeline the way `Scanner.readAll` does, finishing work in the order `pick` chooses,
/// and records what was in flight at every step.
private struct PipelineRun {
    var pipeline: ScanPipeline
    var readsInFlight: [Int] = []
    var commitsInFlight: [WriteBatch] = []
    var committed: [[String]] = []
    var mostReads = 0
    var mostCommits = 0
    /// How many ids each chunk's read yields (chunk i yields "i.0", "i.1", …).
    let perChunk: Int

    init(chunks: Int, parallelism: Int, batchSize: Int, perChunk: Int) {
        pipeline = ScanPipeline(chunkCount: chunks, parallelism: parallelism, batchSize: batchSize)
        self.perChunk = perChunk
    }

    mutating func take(_ actions: [ScanPipeline.Action]) {
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
        take(pipeline.start())
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
        var pipeline = ScanPipeline(chunkCount: 50, parallelism: 2, batchSize: 1)
        var pending: [Int] = []
        var commits = 0
        func take(_ actions: [ScanPipeline.Action]) {
            for action in actions {
                switch action {
                case .read(let chunk): pending.append(chunk)
                case .commit: commits += 1
                }
            }
        }
        take(pipeline.start())
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

    @Test func nothingToReadStartsNothing() {
        var pipeline = ScanPipeline(chunkCount: 0, parallelism: 2, batchSize: 10)
        #expect(pipeline.start().isEmpty)
        #expect(pipeline.isDone)
    }

    @Test func readsThatWriteNothingCommitNothing() {
        var run = PipelineRun(chunks: 3, parallelism: 2, batchSize: 10, perChunk: 0)
        run.run(commitsFirst: true)
        #expect(run.committed.isEmpty)
        #expect(run.pipeline.isDone)
    }
}
