#if canImport(Glibc)
import Glibc
#endif

/// Path-as-bytes file operations: stat, safe open, and a directory walk that never follows links.
///
/// Paths are byte arrays because Linux file names need not be UTF-8, and the index must
/// round-trip every name it finds.
public enum FileSystem {
    /// `lstat` of `path` (a symlink is reported as a symlink, not followed).
    public static func linkStatus(_ path: [UInt8]) -> Result<FileInfo, FileSystemError> {
        var st = stat()
        let rc = withCString(path) { lstat($0, &st) }
        guard rc == 0 else { return .failure(FileSystemError(path: path, errno: errno, operation: "lstat")) }
        return .success(FileInfo(st))
    }

    /// The canonical absolute form of `path` (`realpath`), or nil when it does not resolve.
    public static func canonicalPath(_ path: [UInt8]) -> [UInt8]? {
        withCString(path) { pointer -> [UInt8]? in
            guard let resolved = realpath(pointer, nil) else { return nil }
            defer { free(resolved) }
            return Array(UnsafeRawBufferPointer(start: resolved, count: strlen(resolved)))
        }
    }

    /// Opens a regular file for reading without following a symlink and without blocking on a
    /// FIFO or device swapped in after the walk looked; anything but a regular file is refused.
    public static func openRegularFile(_ path: [UInt8]) -> Result<OpenFile, FileSystemError> {
        let fd = withCString(path) { open($0, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY) }
        guard fd >= 0 else { return .failure(FileSystemError(path: path, errno: errno, operation: "open")) }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let error = FileSystemError(path: path, errno: errno, operation: "fstat")
            close(fd)
            return .failure(error)
        }
        let info = FileInfo(st)
        guard info.kind == .regular else {
            close(fd)
            return .failure(FileSystemError(path: path, errno: EINVAL, operation: "open (not a regular file)"))
        }
        return .success(OpenFile(fileDescriptor: fd, info: info))
    }

    /// Calls `body` with `path` as a NUL-terminated C string.
    static func withCString<T>(_ path: [UInt8], _ body: (UnsafePointer<CChar>) -> T) -> T {
        var terminated = path.map { CChar(bitPattern: $0) }
        terminated.append(0)
        return body(terminated)
    }
}

/// An open regular file; closed when the value goes away.
public struct OpenFile: ~Copyable {
    /// The file descriptor, valid while this value lives.
    public let fileDescriptor: Int32
    /// `fstat` of the open file.
    public let info: FileInfo

    init(fileDescriptor: Int32, info: FileInfo) {
        self.fileDescriptor = fileDescriptor
        self.info = info
    }

    deinit { close(fileDescriptor) }
}
