#if canImport(Glibc)
import Glibc
#endif

/// Inotify masks and event bits, as UInt32.
///
/// Glibc imports the `IN_*` constants as Int32: they are combined as Int32 first and converted
/// once, because mixing the two types in one expression stalls the type checker.
public enum WatchMask {
    /// What a library folder is watched for. Never `IN_OPEN`, `IN_ACCESS`, `IN_CLOSE_NOWRITE` or
    /// `IN_MODIFY`: the indexer's own reads must not feed the queue, and a file is read on its close.
    public static let directory: UInt32 = UInt32(bitPattern: directoryBits)
    /// The event is about a folder.
    public static let isDirectory: UInt32 = UInt32(bitPattern: IN_ISDIR)
    /// A file opened for writing was closed.
    public static let closeWrite: UInt32 = UInt32(bitPattern: IN_CLOSE_WRITE)
    /// An entry was renamed away from the watched folder.
    public static let movedFrom: UInt32 = UInt32(bitPattern: IN_MOVED_FROM)
    /// An entry was renamed into the watched folder.
    public static let movedTo: UInt32 = UInt32(bitPattern: IN_MOVED_TO)
    /// An entry was created (or hard-linked) in the watched folder.
    public static let create: UInt32 = UInt32(bitPattern: IN_CREATE)
    /// An entry was deleted from the watched folder.
    public static let delete: UInt32 = UInt32(bitPattern: IN_DELETE)
    /// The watched folder itself was deleted.
    public static let deleteSelf: UInt32 = UInt32(bitPattern: IN_DELETE_SELF)
    /// The watched folder itself was renamed.
    public static let moveSelf: UInt32 = UInt32(bitPattern: IN_MOVE_SELF)
    /// The file system holding the watched folder was unmounted.
    public static let unmount: UInt32 = UInt32(bitPattern: IN_UNMOUNT)
    /// The kernel's event queue overflowed: events were lost.
    public static let queueOverflow: UInt32 = UInt32(bitPattern: IN_Q_OVERFLOW)
    /// The watch was removed (explicitly, or because its folder is gone).
    public static let ignored: UInt32 = UInt32(bitPattern: IN_IGNORED)

    private static let directoryBits: Int32 = IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE
        | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_DONT_FOLLOW | IN_EXCL_UNLINK
}
