import Store

/// The order of work in a reconcile's read phase, as a value: told what arrived and what
/// finished, it answers what to start next. Chunks of files arrive as the walk finds them and
/// are read on up to `parallelism` threads while the previous batch commits on the store's
/// writer, so neither waits for the other; at most one batch commits while one more waits
/// full, and `wantsInput` turns false while enough is waiting, which bounds memory however
/// large the library.
struct ScanPipeline<Chunk> {
    /// Work to start.
    enum Action {
        /// Read this chunk.
        case read(Chunk)
        /// Commit this batch; only one is in flight at a time.
        case commit(WriteBatch)
    }

    private let parallelism: Int
    private let batchSize: Int
    private let batchBytes: Int
    /// Chunks that arrived and are not being read yet, oldest first.
    private var queued: [Chunk] = []
    private var reading = 0
    private var committing = false
    private var inputEnded = false
    /// Read results not yet a full batch, and about how many bytes they hold.
    private var filling = WriteBatch()
    private var fillingBytes = 0
    /// Full batches waiting for the writer.
    private var full: [WriteBatch] = []

    /// A pipeline reading `parallelism` chunks at once, committing `batchSize` writes at a time,
    /// or fewer once they hold `batchBytes` (a description may be megabytes of XMP).
    init(parallelism: Int, batchSize: Int, batchBytes: Int = 16 << 20) {
        self.parallelism = max(1, parallelism)
        self.batchSize = max(1, batchSize)
        self.batchBytes = max(1, batchBytes)
    }

    /// True once the input has ended and every chunk is read and every batch committed.
    var isDone: Bool { inputEnded && queued.isEmpty && reading == 0 && !committing && full.isEmpty && filling.isEmpty }

    /// Whether more chunks are welcome: fewer than `parallelism` wait to be read, and the
    /// writer is not two batches behind.
    var wantsInput: Bool { queued.count < parallelism && full.count < 2 }

    /// A chunk to read arrived.
    mutating func add(_ chunk: Chunk) -> [Action] {
        queued.append(chunk)
        return schedule()
    }

    /// Writes that need no reading (moves, removals) join the filling batch.
    mutating func add(writes: WriteBatch) -> [Action] {
        fill(with: writes)
        return schedule()
    }

    /// No more chunks or writes will arrive.
    mutating func endInput() -> [Action] {
        inputEnded = true
        return schedule()
    }

    /// A chunk was read into `writes`: they join the filling batch, which goes to the writer once full.
    mutating func read(_ writes: WriteBatch) -> [Action] {
        reading -= 1
        fill(with: writes)
        return schedule()
    }

    /// The batch in flight is committed.
    mutating func committed() -> [Action] {
        committing = false
        return schedule()
    }

    /// Adds `writes` to the filling batch, which goes to the full ones once it holds
    /// `batchSize` writes or `batchBytes`. Writes that arrive together are cut at the batch
    /// size: a renamed root's 1,000,000 moves, handed over at once, were one write batch and
    /// one logged change, and peaked at 1.8 GB.
    private mutating func fill(with writes: WriteBatch) {
        for piece in writes.pieces(first: batchSize - filling.count, size: batchSize) {
            filling.inserts += piece.inserts
            filling.updates += piece.updates
            filling.removals += piece.removals
            filling.vanished += piece.vanished
            fillingBytes += piece.weight
            if filling.count >= batchSize || fillingBytes >= batchBytes {
                full.append(filling)
                filling = WriteBatch()
                fillingBytes = 0
            }
        }
    }

    private mutating func schedule() -> [Action] {
        var actions: [Action] = []
        // The last, partly filled batch goes out once nothing more can join it.
        if inputEnded, reading == 0, queued.isEmpty, !filling.isEmpty {
            full.append(filling)
            filling = WriteBatch()
            fillingBytes = 0
        }
        if !committing, !full.isEmpty {
            committing = true
            actions.append(.commit(full.removeFirst()))
        }
        while reading < parallelism, !queued.isEmpty, full.count < 2 {
            actions.append(.read(queued.removeFirst()))
            reading += 1
        }
        return actions
    }
}

extension WriteBatch {
    /// The batch cut in the order the writer applies a batch's writes (removals, updates,
    /// vanished, inserts), so the pieces committed one after another do what the whole would: the first
    /// piece holds at most `first` writes, the others at most `size`.
    func pieces(first: Int, size: Int) -> [WriteBatch] {
        guard count > first else { return [self] }
        var pieces: [WriteBatch] = []
        var piece = WriteBatch()
        var room = max(1, first)
        func cut<Write>(_ writes: [Write], into kind: WritableKeyPath<WriteBatch, [Write]>) {
            for write in writes {
                piece[keyPath: kind].append(write)
                room -= 1
                guard room == 0 else { continue }
                pieces.append(piece)
                piece = WriteBatch()
                room = max(1, size)
            }
        }
        cut(removals, into: \.removals)
        cut(updates, into: \.updates)
        cut(vanished, into: \.vanished)
        cut(inserts, into: \.inserts)
        if !piece.isEmpty { pieces.append(piece) }
        return pieces
    }

    /// About how many bytes the batch holds: its paths, ids and texts.
    var weight: Int {
        inserts.reduce(0) { $0 + $1.path.bytes.count + $1.content.weight }
            + updates.reduce(0) { $0 + $1.path.bytes.count + $1.id.utf8.count + ($1.content?.weight ?? 0) }
            + removals.reduce(0) { $0 + $1.utf8.count }
            + vanished.reduce(0) { $0 + $1.id.utf8.count + $1.path.bytes.count }
    }
}

extension AssetContent {
    /// About how many bytes its texts take.
    var weight: Int {
        [groupKey, groupSpelling, description, descriptionSource, format, taken, make, model]
            .reduce(64) { $0 + ($1?.utf8.count ?? 0) }
    }
}
