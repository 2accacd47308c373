#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// An exclusive lock on an index, held by the one photod that writes it: `flock` on
/// `index.sqlite.lock` beside the database, which holds the holder's pid for the message a
/// second photod gives. The kernel drops the lock when the holder exits, however it exits, so a
/// stale lock file never keeps photod from starting.
public final class IndexLock: Sendable {
    /// The lock file.
    public let path: String
    private let descriptor: Int32

    /// The lock file's name for the index at `database`.
    public static func path(for database: String) -> String { database + ".lock" }

    /// Takes the lock for the index at `database` (creating its folder 0700 and the lock file
    /// 0600), or throws `StoreError.inUse` naming the pid of the process that holds it.
    public init(database: String) throws {
        path = Self.path(for: database)
        try StoreDatabase.prepareFolder(of: database)
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            throw StoreError.cannotPrepare(path: path, reason: Errno(rawValue: errno).description)
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let busy = errno == EWOULDBLOCK
            let reason = Errno(rawValue: errno)
            let holder = busy ? Self.holder(fd) : nil
            close(fd)
            if busy { throw StoreError.inUse(path: database, pid: holder) }
            throw StoreError.cannotPrepare(path: path, reason: "cannot lock: \(reason)")
        }
        descriptor = fd
        Self.record(pid: getpid(), in: fd)
    }

    deinit { close(descriptor) }

    /// Writes the holder's pid. Best effort: on a full disk the lock still holds, and a second
    /// photod then names no pid.
    private static func record(pid: Int32, in fd: Int32) {
        guard ftruncate(fd, 0) == 0 else { return }
        _ = DurableFile.writeAll(fd, Array("\(pid)\n".utf8))
    }

    /// The pid the holder wrote, if it is there yet.
    private static func holder(_ fd: Int32) -> Int32? {
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = read(fd, &bytes, bytes.count)
        guard count > 0 else { return nil }
        let text = String(decoding: bytes.prefix(count), as: UTF8.self).split(whereSeparator: \.isWhitespace)
        guard text.count == 1, let pid = Int32(text[0]), pid > 0 else { return nil }
        return pid
    }
}
