import FileSystem
import Store

/// Finds the asset a newly seen file already is: same (device, inode, size, mtime), while the
/// asset's own path no longer holds that file. That is a move nobody could pair — into a folder
/// not yet watched, or between roots while photod was down — and the asset keeps its id. Other
/// bytes under the same inode are a new file: file systems reuse a deleted file's inode.
///
/// The candidates are read from the index first (`StoreDatabase.indexedFiles(sharingInodeWith:)`), so
/// the finder itself only checks the disk and runs on the file pool with no store call inside.
struct MovedFileFinder: Sendable {
    private var candidates: [[UInt64]: [IndexedFile]] = [:]

    /// A finder choosing among `candidates`: the indexed files on the inodes of the files to check.
    init(candidates: [IndexedFile]) {
        for file in candidates { self.candidates[[file.stamp.device, file.stamp.inode], default: []].append(file) }
    }

    /// The asset the file with `stamp` already is, if any. Blocking: stats the candidates'
    /// paths with `opener` (one for a batch keeps their folder open, or knows it is gone).
    /// A candidate under `root` (the folder being reconciled) whose path holds another file is
    /// not taken: the walk found that file there and reads it under the candidate's id.
    func asset(for stamp: FileStamp, root: PathBytes? = nil, opener: SafeOpener = SafeOpener()) -> IndexedFile? {
        for candidate in matching(stamp) {
            if case .success(let info) = opener.linkStatus(candidate.path) {
                // Still there: a hard link, a second name for the same file.
                if info.device == stamp.device, info.inode == stamp.inode { continue }
                if let root, candidate.path.isInside(root) { continue }
            }
            return candidate
        }
        return nil
    }

    /// What a reconcile of `root` does now with `file`, a file new at its path it holds while
    /// the walk goes on (`HeldFile`). Blocking, as `asset(for:root:opener:)`.
    func verdict(for file: ReconcilePlan.Read, root: PathBytes, opener: SafeOpener) -> HeldFile {
        // A file with other names may be seen twice: it is adopted once, at the walk's end.
        if file.linked { return matching(file.stamp).isEmpty ? .new : .held }
        return asset(for: file.stamp, root: root, opener: opener).map { .moved($0) } ?? .new
    }

    private func matching(_ stamp: FileStamp) -> [IndexedFile] {
        (candidates[[stamp.device, stamp.inode]] ?? []).filter { stamp.isSameFile(as: $0.stamp) }
    }
}

/// What the index says of a file a reconcile found at a path the index does not have.
enum HeldFile: Sendable, Equatable {
    /// No indexed asset has its identity and bytes, or each that has is still at its path: a
    /// new file, read now.
    case new
    /// The file has other names: it waits for the end of the walk, which adopts an asset once.
    case held
    /// An asset whose file left its path: that asset, moved now, so a renamed folder's million
    /// moves never wait in memory for the walk's end.
    case moved(IndexedFile)
}
