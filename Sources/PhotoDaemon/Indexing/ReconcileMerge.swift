import FileSystem
import Posix
import Store

/// A reconcile's comparison of the disk with the index as both go by in path order: the walk's
/// files on one side, the index's rows on the other, a page at a time, so neither is held whole.
///
/// A file at a path the index has is unchanged (left alone, never opened) or changed (read under
/// its id) at once. What stays in memory is what only the end can settle: index rows the walk did
/// not find (`vanished`), and new files that may be one of them moved (`held`). New files go to
/// `reads` at once when no move can be found (`pairing` off: an empty index), or once the index
/// says no asset has their identity; held files whose asset's old path the index shows no longer
/// holds them go to `moves` then (`settleHeld(by:)`); `finish()` pairs the rest.
struct ReconcileMerge {
    /// Files to read now: changed ones under their id, new ones that cannot be a move. The caller takes them.
    var reads: [ReconcilePlan.Read] = []
    /// Assets found moved while the walk goes, bytes unchanged: only their path changes. The caller takes them.
    var moves: [ReconcilePlan.Move] = []
    /// New files that may be an asset moved while nobody watched.
    private(set) var held: [ReconcilePlan.Read] = []
    /// Index rows whose path the walk did not find: removed, or moved.
    private var vanished: [IndexedFile] = []
    private(set) var unchanged = 0
    /// Index rows compared so far.
    private(set) var indexedRows = 0
    /// More rows vanished than `vanishedLimit`: none are kept (see `ReconcilePlan.sweep`).
    private(set) var sweeping = false
    private let pairing: Bool
    private let vanishedLimit: Int

    /// Vanished rows kept before a merge sweeps instead: a folder of a million photos renamed
    /// inside a root while photod was down held them all, and its files too (1.2 GB).
    static let defaultVanishedLimit = 4 * ReconcileFeed.holdLimit

    /// `pairing`: whether a new file may be an asset already indexed (false for an empty index);
    /// `vanishedLimit`: see `sweeping`.
    init(pairing: Bool, vanishedLimit: Int = Self.defaultVanishedLimit) {
        self.pairing = pairing
        self.vanishedLimit = vanishedLimit
    }

    /// Compares what both sides have in common; takes from the front of `disk` (walk order) and
    /// `index` (path order), leaving what needs more of the other side. A side that has ended
    /// lets the other's remainder through.
    mutating func compare(disk: inout ArraySlice<ReconcilePlan.Read>, index: inout ArraySlice<IndexedFile>,
                          diskEnded: Bool, indexEnded: Bool) {
        // Positions, not removeFirst: an unchanged file (nearly every one at a restart) is then
        // compared in place, its path and stamp read where they are, and nothing is copied,
        // retained or released for it. What was used is cut off once, at the end.
        var file = disk.startIndex
        var row = index.startIndex
        defer {
            disk = disk[file...]
            index = index[row...]
        }
        while true {
            if file < disk.endIndex, row < index.endIndex {
                let order = disk[file].path.order(index[row].path)
                if order < 0 {
                    found(disk[file])
                    file += 1
                } else if order > 0 {
                    lost(index[row])
                    row += 1
                } else {
                    defer {
                        file += 1
                        row += 1
                    }
                    indexedRows += 1
                    if disk[file].inUnchangedFolder || disk[file].stamp.isUnchanged(since: index[row].stamp) {
                        unchanged += 1
                    } else if pairing, !disk[file].stamp.isSameIdentity(as: index[row].stamp) {
                        // Another file at the row's path: it may be another asset moved over
                        // this one, which must stay itself (a grant names an asset, not a path).
                        var read = disk[file]
                        read.replaces = index[row].id
                        held.append(read)
                    } else {
                        var read = disk[file]
                        read.id = index[row].id
                        reads.append(read)
                    }
                }
            } else if indexEnded, file < disk.endIndex {
                found(disk[file])
                file += 1
            } else if diskEnded, row < index.endIndex {
                lost(index[row])
                row += 1
            } else {
                return
            }
        }
    }

    /// Settles held files by what the index says of each (`verdict`, asked in order): a new
    /// one is read now, a moved one is that asset's move (or a read under its id when its
    /// sidecar differs), and a held one stays held.
    mutating func settleHeld(by verdict: (ReconcilePlan.Read) -> HeldFile) {
        var kept: [ReconcilePlan.Read] = []
        for file in held {
            switch verdict(file) {
            case .held:
                kept.append(file)
            case .new:
                var read = file
                read.id = file.replaces  // none: a new file; else the asset at its path, rewritten
                reads.append(read)
            case .moved(let asset) where asset.stamp.sidecar == file.stamp.sidecar:
                moves.append(ReconcilePlan.Move(id: asset.id, path: file.path, stamp: file.stamp, replaces: file.replaces))
            case .moved(let asset):
                var read = file
                read.id = asset.id  // moved away from its sidecar, or onto one: read it again
                reads.append(read)
            }
        }
        held = kept
    }

    /// Takes over what `other`, a merge of another range of the same root, has not settled, so
    /// that one `finish()` pairs moves across the ranges.
    mutating func absorb(_ other: ReconcileMerge) {
        reads += other.reads
        moves += other.moves
        held += other.held
        sweeping = sweeping || other.sweeping
        vanished = sweeping ? [] : vanished + other.vanished
        unchanged += other.unchanged
        indexedRows += other.indexedRows
    }

    /// Settles what is left once both sides have ended: a held file with the identity and bytes
    /// of a vanished row is that asset, moved; the other vanished rows are removed, unless a
    /// move written before takes them elsewhere. A sweeping merge kept no vanished rows: its
    /// held files are all left to read, for the caller to find the moves among them.
    mutating func finish() -> ReconcilePlan {
        var plan = ReconcilePlan(reads: reads, moves: moves, unchanged: unchanged)
        reads = []
        moves = []
        if sweeping {
            plan.reads += held.map(\.readUnderReplacedID)
            plan.sweep = true
            held = []
            return plan
        }
        var vanishedByIdentity: [FileIdentity: IndexedFile] = [:]
        for file in vanished {
            vanishedByIdentity[FileIdentity(device: file.stamp.device, inode: file.stamp.inode)] = file
        }
        var moved: Set<String> = []
        for file in held {
            let identity = FileIdentity(device: file.stamp.device, inode: file.stamp.inode)
            // Same identity and same bytes (mv keeps size and mtime): the same file, moved.
            // Same identity with other bytes is a new file in a reused inode, not an edit.
            if let old = vanishedByIdentity[identity], file.stamp.isSameFile(as: old.stamp) {
                vanishedByIdentity[identity] = nil
                moved.insert(old.id)
                if old.stamp.sidecar == file.stamp.sidecar {
                    plan.moves.append(ReconcilePlan.Move(id: old.id, path: file.path, stamp: file.stamp,
                                                         replaces: file.replaces))
                } else {
                    // Moved away from its sidecar, or onto one: same asset, description read again.
                    var read = file
                    read.id = old.id
                    plan.reads.append(read)
                }
            } else {
                // Read as new, or under the id of the asset it replaces, unless the caller finds
                // it is an asset moved in from outside (`Read.mayBeMovedIn`).
                plan.reads.append(file.readUnderReplacedID)
            }
        }
        held = []
        plan.vanished = vanished.filter { !moved.contains($0.id) }.sorted { $0.id < $1.id }
            .map { WriteBatch.Vanished(id: $0.id, path: $0.path) }
        vanished = []
        return plan
    }

    /// A file the index does not have at its path.
    private mutating func found(_ file: ReconcilePlan.Read) {
        if pairing { held.append(file) } else { reads.append(file) }
    }

    /// An index row whose path the walk did not find.
    private mutating func lost(_ row: IndexedFile) {
        indexedRows += 1
        guard !sweeping else { return }
        vanished.append(row)
        if vanished.count > vanishedLimit {
            sweeping = true
            vanished = []
        }
    }
}
