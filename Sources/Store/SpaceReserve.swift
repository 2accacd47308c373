#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A file of allocated room beside the index (`index.sqlite.reserve`) that photod gives up when
/// the disk is full at start-up, so that it can still open the index and serve it, degraded.
///
/// Opening an index in WAL mode needs room even to read it: SQLite creates and sizes the
/// `-shm` file (32 KiB) at the first read, and on a full disk that fails (SQLITE_IOERR_SHMSIZE,
/// "SQLite error 4874"), so photod would exit. With the reserve deleted there is room for it,
/// and for the lock file; writes then fail as on any full disk (photod says degraded and catches
/// up). The reserve is made again as soon as there is room for it.
enum SpaceReserve {
    /// 1 MiB: the `-shm` file and the first WAL frames of a start, with room to spare.
    static let bytes = 1 << 20

    /// Where the reserve of the index at `index` is.
    static func path(for index: String) -> String { index + ".reserve" }

    /// Makes the reserve (0600, its blocks allocated) when it is missing; false when there is
    /// no room for it (or it cannot be made), and nothing is left behind then.
    @discardableResult
    static func ensure(for index: String) -> Bool {
        let path = path(for: index)
        if DurableFile.size(of: path) == bytes { return true }
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return false }
        let failed = posix_fallocate(fd, 0, off_t(bytes))
        close(fd)
        if failed != 0 { unlink(path) }
        return failed == 0
    }

    /// Deletes the reserve, giving its room back to the disk; false when there was none.
    static func release(for index: String) -> Bool {
        unlink(path(for: index)) == 0
    }
}
