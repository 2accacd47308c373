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
        for candidate in candidates[[stamp.device, stamp.inode]] ?? []
        where stamp.isSameFile(as: candidate.stamp) {
            if case .success(let info) = opener.linkStatus(candidate.path),
               info.device == stamp.device, info.inode == stamp.inode {
                continue  // Still there: a hard link, a second name for the same file.
            }
            return candidate
        }
        return nil
    }
}
