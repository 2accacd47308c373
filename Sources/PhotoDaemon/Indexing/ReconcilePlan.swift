import FileSystem
import Store

/// What a reconcile must do to make the index equal the disk, decided without I/O.
///
/// A file whose (device, inode, size, mtime) matches the index is left alone and never
/// opened. A file at a new path whose (device, inode, size, mtime) matches a vanished one is
/// the same asset moved while nobody watched: it keeps its id. Identity alone is not enough:
/// file systems hand a deleted file's inode to the next new file. A stamp includes the image's
/// XMP sidecar: a sidecar that appeared, changed or vanished means the image is read again.
/// `ReconcileMerge` decides it as the walk and the index go by; `make` runs one over whole lists.
struct ReconcilePlan: Equatable {
    /// A file to open and read; `id` is set when the asset already exists (changed or moved).
    struct Read: Equatable {
        var path: PathBytes
        var stamp: FileStamp
        var id: String?
        /// The XMP sidecar the walk found beside it (its signature is in `stamp`).
        var sidecar: PathBytes?
        /// The file has other names (hard links): it may be seen twice in one walk.
        var linked = false
        /// The asset indexed at this path from another file (another device or inode): read
        /// under that id (an editor's save while nobody watched) unless the file is another
        /// asset moved here, which keeps its own id while this one leaves the library.
        var replaces: String? = nil
        /// Listed by name in a folder unchanged since the last poll pass (`FolderTimes`): the
        /// index's stamp stands for it.
        var inUnchangedFolder = false

        /// Read under the id of the asset it replaces, if any: what it is when no asset moved here.
        var readUnderReplacedID: Read {
            var read = self
            read.id = read.id ?? replaces
            return read
        }

        /// Not known to be an asset: new, or a file put in place of the one at its path. It may
        /// still be an asset moved in from outside the folder reconciled.
        var mayBeMovedIn: Bool { id == nil || id == replaces }
    }

    /// A known asset found at a new path, bytes unchanged: only its path and stamp change.
    struct Move: Equatable {
        var id: String
        var path: PathBytes
        var stamp: FileStamp
        /// The asset indexed at `path` from another file, which the move puts out of the library.
        var replaces: String? = nil
    }

    var reads: [Read] = []
    var moves: [Move] = []
    /// Index rows no file was found at, by id: removed unless a move written before takes them elsewhere.
    var vanished: [WriteBatch.Vanished] = []
    var unchanged = 0
    /// Too many rows vanished to keep: the reconcile finds them in the index once the walk is
    /// over (`Scanner`), and `reads` holds every file that was held, new or moved.
    var sweep = false

    /// Compares the index's files under a root with the files the walk found there, in any order.
    static func make(
        indexed: [IndexedFile], onDisk: [DirectoryWalker.Entry], sidecar: (PathBytes) -> Int64 = { _ in 0 }
    ) -> ReconcilePlan {
        var disk = onDisk.map { entry in
            let path = entry.path
            var stamp = FileStamp(entry.info)
            stamp.sidecar = sidecar(path)
            return Read(path: path, stamp: stamp, id: nil, linked: entry.info.linkCount > 1)
        }.sorted { $0.path < $1.path }[...]
        var index = indexed.sorted { $0.path < $1.path }[...]
        var merge = ReconcileMerge(pairing: true)
        merge.compare(disk: &disk, index: &index, diskEnded: true, indexEnded: true)
        return merge.finish()
    }
}
