#if canImport(Glibc)
import Glibc
#endif

/// Path-as-bytes file operations: stat, safe open, and a directory walk that never follows links.
///
/// Paths are byte arrays because Linux file names need not be UTF-8, and the index must
/// round-trip every name it finds.
public enum FileSystem {
    /// `lstat` of an absolute `path` reached through real folders only (see `SafeOpener`): a
    /// symlink is reported as a symlink, and one in place of a folder above it fails the call.
    public static func linkStatus(_ path: PathBytes) -> Result<FileInfo, FileSystemError> {
        SafeOpener().linkStatus(path)
    }

    /// The canonical absolute form of `path` (`realpath`), or nil when it does not resolve.
    public static func canonicalPath(_ path: PathBytes) -> PathBytes? {
        guard let resolved = realpath(path.cString, nil) else { return nil }
        defer { free(resolved) }
        return PathBytes(Array(UnsafeRawBufferPointer(start: resolved, count: strlen(resolved))))
    }

    /// Opens a regular file at an absolute path for reading without following a symlink in any
    /// component; see `SafeOpener`, which also keeps the folder open for the next file in it.
    public static func openRegularFile(_ path: PathBytes) -> Result<OpenFile, FileSystemError> {
        SafeOpener().openRegularFile(path)
    }

    /// Makes a name placed in the folder of `path` (a rename, a link) survive a crash. Best
    /// effort: the name is there already, and a file system without directory fsync keeps it in order.
    public static func syncFolder(of path: PathBytes) {
        let folder = open((path.parent ?? PathBytes(".")).cString, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { return }
        _ = fsync(folder)
        close(folder)
    }

    /// Removes the file at `path` that this process just placed (an import undone), and makes
    /// that survive a crash; false when it could not.
    @discardableResult
    public static func removePlaced(_ path: PathBytes) -> Bool {
        guard unlink(path.cString) == 0 else { return false }
        syncFolder(of: path)
        return true
    }

    /// Up to `count` bytes of the open file from its start, fewer when it ends sooner; the
    /// failing `errno` when a read fails. A caller that must see the file end asks for one
    /// byte more than it expects.
    public static func readFromStart(_ descriptor: Int32, upTo count: Int) -> Result<[UInt8], ReadFailure> {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let read = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress.map { $0 + filled }, count - filled, off_t(filled))
            }
            if read < 0 {
                if errno == EINTR { continue }
                return .failure(ReadFailure(errno: errno))
            }
            if read == 0 { break }
            filled += read
        }
        bytes.removeLast(count - filled)
        return .success(bytes)
    }

    /// A read that failed, with its `errno`.
    public struct ReadFailure: Error, Sendable {
        /// The errno `pread` failed with.
        public let errno: Int32
    }

    /// Calls `body` with `name` (an entry's name) as a NUL-terminated C string.
    static func withCString<T>(_ name: [UInt8], _ body: (UnsafePointer<CChar>) -> T) -> T {
        body(PathBytes(name).cString)
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
