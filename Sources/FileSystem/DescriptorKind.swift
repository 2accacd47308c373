#if canImport(Glibc)
import Glibc
#endif

/// What an open descriptor is, for a reader that takes only files and pipes (an import).
public enum DescriptorKind: Sendable, Equatable {
    /// A regular file (a memfd too) of `size` bytes now; it may still grow while read.
    case regular(size: Int64)
    /// A pipe (or FIFO): read to its end, its size known only then.
    case pipe
    /// Anything else, in words ("a folder", "a socket", "a device").
    case other(String)

    /// What `descriptor` is; nil when `fstat` fails (a closed descriptor).
    public static func of(_ descriptor: Int32) -> DescriptorKind? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return .regular(size: Int64(status.st_size))
        case S_IFIFO: return .pipe
        case S_IFDIR: return .other("a folder")
        case S_IFSOCK: return .other("a socket")
        case S_IFCHR, S_IFBLK: return .other("a device")
        default: return .other("not a regular file")
        }
    }
}
