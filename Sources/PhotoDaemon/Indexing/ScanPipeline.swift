import Store

/// The order of work in a reconcile's read phase, as a value: told what finished, it answers
/// what to start next. Files are read a chunk at a time on up to `parallelism` threads while
/// the previous batch commits on the store's writer, so neither waits for the other; at most
/// one batch commits while one more waits full, which bounds memory however large the library.
struct ScanPipeline {
    /// Work to start.
    enum Action {
        /// Read chunk number `chunk` (in order, from 0).
        case read(chunk: Int)
        /// Commit this batch; only one is in flight at a time.
        case commit(WriteBatch)
    }

    private let chunkCount: Int
    private let parallelism: Int
    private let batchSize: Int
    private var nextChunk = 0
    private var reading = 0
    private var committing = false
    /// Read results not yet a full batch.
    private var filling = WriteBatch()
    /// Full batches waiting for the writer.
    private var full: [WriteBatch] = []

    /// A pipeline over `chunkCount` chunks, reading `parallelism` at once, committing `batchSize` writes at a time.
    init(chunkCount: Int, parallelism: Int, batchSize: Int) {
        self.chunkCount = chunkCount
        self.parallelism = max(1, parallelism)
        self.batchSize = max(1, batchSize)
    }

    /// True once every chunk is read and every batch committed.
    var isDone: Bool { nextChunk == chunkCount && reading == 0 && !committing && full.isEmpty && filling.isEmpty }

    /// The first reads.
    mutating func start() -> [Action] {
        schedule()
    }

    /// A chunk was read into `writes`: they join the filling batch, which goes to the writer once full.
    mutating func read(_ writes: WriteBatch) -> [Action] {
        reading -= 1
        filling.inserts += writes.inserts
        filling.updates += writes.updates
        filling.removals += writes.removals
        if filling.count >= batchSize {
            full.append(filling)
            filling = WriteBatch()
        }
        return schedule()
    }

    /// The batch in flight is committed.
    mutating func committed() -> [Action] {
        committing = false
        return schedule()
    }

    private mutating func schedule() -> [Action] {
        var actions: [Action] = []
        // The last, partly filled batch goes out once nothing more can join it.
        if reading == 0, nextChunk == chunkCount, !filling.isEmpty {
            full.append(filling)
            filling = WriteBatch()
        }
        if !committing, !full.isEmpty {
            committing = true
            actions.append(.commit(full.removeFirst()))
        }
        while reading < parallelism, nextChunk < chunkCount, full.count < 2 {
            actions.append(.read(chunk: nextChunk))
            nextChunk += 1
            reading += 1
        }
        return actions
    }
}
