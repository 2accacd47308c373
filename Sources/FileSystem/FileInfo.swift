#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// What `lstat`/`fstat` says about a file, in the terms the indexer needs.
public struct FileInfo: Sendable, Hashable {
    /// The kinds of file the walker distinguishes.
    public enum Kind: Sendable, Hashable {
        case regular, directory, symlink, other
    }

    public var kind: Kind
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    public var mtimeNs: Int64
    /// Hard links to the file (`st_nlink`).
    public var linkCount: Int

    /// Creates a file-info value.
    public init(kind: Kind, device: UInt64, inode: UInt64, size: Int64, mtimeNs: Int64, linkCount: Int = 1) {
        self.kind = kind
        self.device = device
        self.inode = inode
        self.size = size
        self.mtimeNs = mtimeNs
        self.linkCount = linkCount
    }

    init(_ st: stat) {
        let format = st.st_mode & S_IFMT
        switch format {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symlink
        default: kind = .other
        }
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
        size = Int64(st.st_size)
        mtimeNs = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
        linkCount = Int(st.st_nlink)
    }
}

/// A failed system call on a path, with errno.
/// Made only inside this module, by its memberwise initializer.
public struct FileSystemError: Error, Sendable, CustomStringConvertible {
    /// The path the call was made on.
    public let path: PathBytes
    /// The errno it failed with.
    public let errno: Int32
    /// The call, in words (`open`, `lstat`).
    public let operation: String

    /// The path holds no file photod reads: it is gone, a folder on the way is gone or is not
    /// a folder, or it is a symlink or other non-regular file (never followed, EINVAL from the
    /// opener). Any other failure (EACCES, EIO) says nothing of whether the file is there.
    public var meansNoFile: Bool {
        errno == ENOENT || errno == ENOTDIR || errno == ELOOP || errno == EINVAL
    }

    public var description: String {
        "\(operation) \(path): \(Errno(rawValue: errno))"
    }

    /// What failed and why, without the path: for a reply to a caller that need not see it.
    public var reason: String { "\(operation): \(Errno(rawValue: errno))" }
}
