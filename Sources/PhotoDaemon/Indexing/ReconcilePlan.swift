import FileSystem
import Store

/// What a reconcile must do to make the index equal the disk, decided without I/O.
///
/// A file whose (device, inode, size, mtime) matches the index is left alone and never
/// opened. A file at a new path whose (device, inode, size, mtime) matches a vanished one is
/// the same asset moved while nobody watched: it keeps its id. Identity alone is not enough:
/// file systems hand a deleted file's inode to the next new file. A stamp includes the image's
/// XMP sidecar: a sidecar that appeared, changed or vanished means the image is read again.
struct ReconcilePlan: Equatable {
    /// A file to open and read; `id` is set when the asset already exists (changed or moved).
    struct Read: Equatable {
        var path: [UInt8]
        var stamp: FileStamp
        var id: String?
    }

    /// A known asset found at a new path, bytes unchanged: only its path and stamp change.
    struct Move: Equatable {
        var id: String
        var path: [UInt8]
        var stamp: FileStamp
    }

    var reads: [Read] = []
    var moves: [Move] = []
    var removals: [String] = []
    var unchanged = 0

    /// Compares the index's files under a root with the files the walk found there.
    static func make(
        indexed: [IndexedFile], onDisk: [DirectoryWalker.Entry], sidecar: ([UInt8]) -> Int64 = { _ in 0 }
    ) -> ReconcilePlan {
        var plan = ReconcilePlan()
        var byPath: [PathKey: IndexedFile] = [:]
        byPath.reserveCapacity(indexed.count)
        for file in indexed { byPath[PathKey(file.path)] = file }
        var newFiles: [(path: [UInt8], stamp: FileStamp)] = []
        for entry in onDisk {
            var stamp = FileStamp(entry.info)
            stamp.sidecar = sidecar(entry.path)
            if let known = byPath.removeValue(forKey: PathKey(entry.path)) {
                if stamp.isUnchanged(since: known.stamp) {
                    plan.unchanged += 1
                } else {
                    plan.reads.append(Read(path: entry.path, stamp: stamp, id: known.id))
                }
            } else {
                newFiles.append((entry.path, stamp))
            }
        }
        // What is left in byPath vanished from its path; it may have moved.
        var vanishedByIdentity: [FileIdentity: IndexedFile] = [:]
        for file in byPath.values {
            vanishedByIdentity[FileIdentity(device: file.stamp.device, inode: file.stamp.inode)] = file
        }
        for file in newFiles {
            let identity = FileIdentity(device: file.stamp.device, inode: file.stamp.inode)
            // Same identity and same bytes (mv keeps size and mtime): the same file, moved.
            // Same identity with other bytes is a new file in a reused inode, not an edit.
            if let old = vanishedByIdentity[identity], file.stamp.isSameFile(as: old.stamp) {
                vanishedByIdentity[identity] = nil
                byPath.removeValue(forKey: PathKey(old.path))
                if old.stamp.sidecar == file.stamp.sidecar {
                    plan.moves.append(Move(id: old.id, path: file.path, stamp: file.stamp))
                } else {
                    // Moved away from its sidecar, or onto one: same asset, description read again.
                    plan.reads.append(Read(path: file.path, stamp: file.stamp, id: old.id))
                }
            } else {
                plan.reads.append(Read(path: file.path, stamp: file.stamp, id: nil))
            }
        }
        plan.removals = byPath.values.map(\.id).sorted()
        return plan
    }
}
