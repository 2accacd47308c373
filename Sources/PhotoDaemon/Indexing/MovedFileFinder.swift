import FileSystem
import Store

/// Finds the asset a newly seen file already is: same (device, inode, size, mtime), while the
/// asset's own path no longer holds that file. That is a move nobody could pair — into a folder
/// not yet watched, or between roots while photod was down — and the asset keeps its id. Other
/// bytes under the same inode are a new file: file systems reuse a deleted file's inode.
enum MovedFileFinder {
    static func asset(for stamp: FileStamp, in store: StoreQueries) throws -> IndexedFile? {
        for candidate in try store.indexedFiles(device: stamp.device, inode: stamp.inode)
        where candidate.stamp.size == stamp.size && candidate.stamp.mtimeNs == stamp.mtimeNs {
            if case .success(let info) = FileSystem.linkStatus(candidate.path),
               info.device == stamp.device, info.inode == stamp.inode {
                continue  // Still there: a hard link, a second name for the same file.
            }
            return candidate
        }
        return nil
    }
}
