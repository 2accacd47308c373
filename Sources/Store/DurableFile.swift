import Foundation

/// Replacing a small file so that a crash or a power cut leaves either the old contents or the
/// new, never a truncated file.
enum DurableFile {
    /// Writes `data` to `path` (mode 0600): a temporary file beside it, fsync, rename over
    /// `path`, fsync of the folder.
    static func replace(_ path: String, with data: Data) throws {
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw failure("cannot create \(temporary)") }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        do {
            try handle.write(contentsOf: data)
            try handle.synchronize()
            try handle.close()
        } catch {
            try? handle.close()
            unlink(temporary)
            throw StoreError.cannotWrite(path: temporary, reason: "\(error)")
        }
        guard rename(temporary, path) == 0 else {
            let error = failure("cannot rename \(temporary) to \(path)")
            unlink(temporary)
            throw error
        }
        syncFolder(of: path)
    }

    /// Makes a rename in the folder of `path` durable. Best effort: the rename itself has
    /// happened, and a file system without directory fsync still keeps it in order.
    static func syncFolder(of path: String) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    /// The size of the file at `path` in bytes, or nil when it cannot be looked at.
    static func size(of path: String) -> Int? {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        return (attributes?[.size] as? NSNumber)?.intValue
    }

    private static func failure(_ what: String) -> StoreError {
        .cannotWrite(path: what, reason: String(cString: strerror(errno)))
    }
}
