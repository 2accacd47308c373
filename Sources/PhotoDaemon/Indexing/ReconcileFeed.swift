import FileSystem
import Store

/// The input side of a reconcile of one range of paths, as a value: the walk's chunks and the
/// index's pages, each fetched one at a time and a little ahead, compared as they arrive
/// (`ReconcileMerge`). Told what arrived, it answers what to fetch next; the scanner does the
/// fetching.
struct ReconcileFeed {
    /// Something to fetch.
    enum Fetch: Sendable {
        /// The walk's next files.
        case walk
        /// The index's next page of files: after the path `after`, else from the path `from` (nil: from the first).
        case page(from: PathBytes?, after: PathBytes?)
        /// What the index says of these held files (new at their path): `HeldFile`.
        case check([ReconcilePlan.Read])
    }

    /// Files walked per pull, and index rows per page.
    static let walkStep = 1024
    static let pageSize = 4096
    /// Files to read waiting for the readers past which the walk waits too.
    static let readAhead = 2 * walkStep
    /// New files held while moves are possible before the index is asked about them; the walk
    /// waits while twice as many wait for an answer.
    static let holdLimit = 4096

    private(set) var merge: ReconcileMerge
    private var disk: ArraySlice<ReconcilePlan.Read> = []
    private var index: ArraySlice<IndexedFile> = []
    private var walking = false
    private var paging = false
    /// Held files at the front of `merge.held` already known to have an indexed twin, and how
    /// many are being checked now (nil: none).
    private var settled = 0
    private var checking: Int?
    private(set) var walkEnded = false
    private(set) var indexEnded = false
    /// The path the next page starts after.
    private var lastIndexed: PathBytes?
    /// Files the walk went past (sidecars included).
    private(set) var found = 0
    /// Rows in the first page: 0 means nothing under this root is indexed yet.
    private(set) var firstPageRows: Int?

    /// The paths this feed compares; the walk and the pages keep to them.
    let range: PathRange
    /// Folders left out of the comparison on both sides, so their photos stay as indexed: where
    /// a drive is away, and those the walk found but could not read (added as it reports them).
    private(set) var leftOut: LeftOutFolders

    /// Some rows are left out of the pages (`UntouchedStems`): an empty first page does not
    /// mean nothing under the root is indexed.
    private let rowsLeftOut: Bool

    /// A feed for a merge that pairs moves when `pairing` and keeps up to `vanishedLimit` vanished
    /// rows (see `ReconcileMerge`), of the paths in `range`.
    init(pairing: Bool, range: PathRange = PathRange(low: nil, high: nil),
         vanishedLimit: Int = ReconcileMerge.defaultVanishedLimit, excluding: [PathBytes] = [], rowsLeftOut: Bool = false) {
        merge = ReconcileMerge(pairing: pairing, vanishedLimit: vanishedLimit)
        self.range = range
        leftOut = LeftOutFolders(excluding)
        self.rowsLeftOut = rowsLeftOut
    }

    /// Both sides have ended and every file is compared: `finish()` may settle the rest.
    var isExhausted: Bool {
        walkEnded && indexEnded && disk.isEmpty && index.isEmpty && checking == nil
    }

    /// What to fetch now. The walk waits while the readers are behind (files to read pile up
    /// here, as `takeReads` is only called while they want more) or many files are held.
    mutating func fetches() -> [Fetch] {
        var fetches: [Fetch] = []
        if !walking, !walkEnded, disk.count < Self.walkStep, merge.reads.count < Self.readAhead,
           merge.moves.count < Self.holdLimit, merge.held.count - settled < 2 * Self.holdLimit {
            walking = true
            fetches.append(.walk)
        }
        if !paging, !indexEnded, index.count < Self.pageSize / 2 {
            paging = true
            fetches.append(.page(from: range.low, after: lastIndexed))
        }
        if checking == nil, merge.held.count - settled >= Self.holdLimit {
            checking = merge.held.count
            fetches.append(.check(Array(merge.held[settled...])))
        }
        return fetches
    }

    /// The walk's next files arrived.
    mutating func walked(_ step: LibraryWalk.Step) {
        walking = false
        walkEnded = step.ended
        found += step.found
        if !step.unreadable.isEmpty {
            step.unreadable.forEach { leftOut.add($0) }
            // Rows already paged in are not compared yet: the walk reports a folder before any
            // file after it, and a row is only settled once the walk has gone past it.
            if !index.isEmpty { index.removeAll { leftOut.holds($0.path) } }
        }
        let files = leftOut.isEmpty ? step.files : step.files.filter { !leftOut.holds($0.path) }
        // Taken whole when the last step's files are used up, rather than copied in one by one.
        if disk.isEmpty { disk = files[...] } else { disk += files }
        compare()
    }

    /// A page of the index arrived; a short one is the last, and so is one reaching past the range.
    mutating func paged(_ rows: [IndexedFile]) {
        paging = false
        var rows = rows
        indexEnded = rows.count < Self.pageSize
        if let high = range.high, let past = rows.firstIndex(where: { $0.path >= high }) {
            rows.removeSubrange(past...)
            indexEnded = true
        }
        if firstPageRows == nil { firstPageRows = rowsLeftOut ? max(rows.count, 1) : rows.count }
        lastIndexed = rows.last?.path ?? lastIndexed
        // Paged on from the last row read, kept or not.
        if !leftOut.isEmpty { rows.removeAll { leftOut.holds($0.path) } }
        // Usually the last page is used up: the new one is taken whole rather than copied in.
        if index.isEmpty { index = rows[...] } else { index += rows }
        compare()
    }

    /// The index's answer to the last check, a verdict for each file asked about, in order:
    /// the new ones are read and the moved ones written now; the others stay held.
    mutating func checked(_ verdicts: [HeldFile]) {
        guard let count = checking else { return }
        checking = nil
        // Held: the settled ones, then the ones checked, then those held after the check began
        // (not asked about: they stay, unsettled). The order is kept, so the settled stay first.
        let settledBefore = settled
        var position = 0
        var stillHeld = 0
        merge.settleHeld { _ in
            defer { position += 1 }
            let asked = position - settledBefore
            guard position < count, asked >= 0, asked < verdicts.count else { return .held }
            if verdicts[asked] == .held { stillHeld += 1 }
            return verdicts[asked]
        }
        settled = settledBefore + stillHeld
    }

    /// The moves found so far, to write; the walk waits while many are not taken.
    mutating func takeMoves() -> [ReconcilePlan.Move]? {
        guard !merge.moves.isEmpty else { return nil }
        defer { merge.moves = [] }
        return merge.moves
    }

    /// Up to `limit` files to read, taken in order; fewer only when the walk has ended. Call it
    /// only while the readers want more: what is not taken holds the walk back.
    mutating func takeReads(limit: Int) -> [ReconcilePlan.Read]? {
        guard merge.reads.count >= limit || (walkEnded && !merge.reads.isEmpty) else { return nil }
        let taken = Array(merge.reads.prefix(limit))
        merge.reads.removeFirst(taken.count)
        return taken
    }

    /// The merge, for `finish()` once every feed is exhausted; the feed keeps nothing to read.
    mutating func takeMerge() -> ReconcileMerge {
        defer { merge = ReconcileMerge(pairing: false) }
        return merge
    }

    private mutating func compare() {
        merge.compare(disk: &disk, index: &index, diskEnded: walkEnded, indexEnded: indexEnded)
    }
}
