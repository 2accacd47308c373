#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import FileSystem
import SystemPackage

/// Replacing a small file so that a crash or a power cut leaves either the old contents or the
/// new, never a truncated file.
enum DurableFile {
    /// Writes `data` to `path` (mode 0600): a temporary file beside it, fsync, rename over
    /// `path`, fsync of the folder.
    static func replace(_ path: String, with data: Data) throws {
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw failure("cannot create \(temporary)") }
        let written = writeAll(fd, Array(data)) && fsync(fd) == 0
        let failed = written ? nil : Errno(rawValue: errno).description
        let closed = close(fd) == 0
        guard written, closed else {
            let reason = failed ?? Errno(rawValue: errno).description
            unlink(temporary)
            throw StoreError.cannotWrite(path: temporary, reason: reason)
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
        FileSystem.syncFolder(of: PathBytes(path))
    }

    /// The size of the file at `path` in bytes, or nil when it cannot be looked at.
    static func size(of path: String) -> Int? {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : nil
    }

    /// Creates `folder` and its missing parents, as `mkdir -p` does, `folder` itself with
    /// `mode`; the errno of the first mkdir that fails.
    static func createFolders(_ folder: String, mode: mode_t) -> Int32? {
        var path = folder.hasPrefix("/") ? "" : "."
        let parts = folder.split(separator: "/")
        for (index, part) in parts.enumerated() {
            path += "/" + part
            if mkdir(path, index == parts.count - 1 ? mode : 0o777) != 0 && errno != EEXIST { return errno }
        }
        return nil
    }

    /// Writes all of `bytes` to `fd`, going on after a short write or a signal; false (errno
    /// set) when a write fails.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = write(fd, Array(bytes[offset...]), bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    private static func failure(_ what: String) -> StoreError {
        .cannotWrite(path: what, reason: Errno(rawValue: errno).description)
    }
}
