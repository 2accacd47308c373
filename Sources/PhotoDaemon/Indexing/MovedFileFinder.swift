import FileSystem
import Store

/// Finds the asset a newly seen file already is: same (device, inode, size, mtime), while the
/// asset's own path no longer holds that file. That is a move nobody could pair — into a folder
/// not yet watched, or between roots while photod was down — and the asset keeps its id. Other
/// bytes under the same inode are a new file: file systems reuse a deleted file's inode.
///
/// The candidates are read from the index first (`Store.indexedFiles(sharingInodeWith:)`), so
/// the finder itself only checks the disk and runs on the file pool with no store call inside.
struct MovedFileFinder: Sendable {
    private var candidates: [[UInt64]: [IndexedFile]] = [:]

    /// A finder choosing among `candidates`: the indexed files on the inodes of the files to check.
    init(candidates: [IndexedFile]) {
        for file in candidates { self.candidates[[file.stamp.device, file.stamp.inode], default: []].append(file) }
    }

    /// The asset the file with `stamp` already is, if any. Blocking: stats the candidates'
    /// paths with `opener` (one for a batch keeps their folder open, or knows it is gone).
    func asset(for stamp: FileStamp, opener: SafeOpener = SafeOpener()) -> IndexedFile? {
        for candidate in matching(stamp) {
            if case .success(let info) = opener.linkStatus(candidate.path),
               info.device == stamp.device, info.inode == stamp.inode {
                continue  // Still there: a hard link, a second name for the same file.
            }
            return candidate
        }
        return nil
    }

    /// What a reconcile of `root` does now with `file`, a file new at its path it holds while
    /// the walk goes on (`HeldFile`). Blocking, as `asset(for:opener:)`.
    func verdict(for file: ReconcilePlan.Read, root: [UInt8], opener: SafeOpener) -> HeldFile {
        let matching = matching(file.stamp)
        guard !matching.isEmpty else { return .new }
        // An asset under the root may be its own vanished row, which only the end of the walk
        // knows; a file with other names may be adopted once only, which the end makes sure of.
        if file.linked || matching.contains(where: { $0.path.isPathInside(root) }) { return .held }
        return asset(for: file.stamp, opener: opener).map { .moved($0) } ?? .new
    }

    private func matching(_ stamp: FileStamp) -> [IndexedFile] {
        (candidates[[stamp.device, stamp.inode]] ?? []).filter { stamp.isSameFile(as: $0.stamp) }
    }
}

/// What the index says of a file a reconcile found at a path the index does not have.
enum HeldFile: Sendable, Equatable {
    /// No indexed asset has its identity and bytes: a new file, read now.
    case new
    /// An asset under the root being reconciled could be it (or it has other names): it waits
    /// for the end of the walk, which pairs it with that asset's vanished row.
    case held
    /// An asset indexed outside the root, whose file left that path: that asset, moved now, so
    /// a renamed root's million moves never wait in memory for the walk's end.
    case moved(IndexedFile)
}
