#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Tells when a file photod handed out is gone from every process: for a file with no name (a
/// memfd), the kernel drops an inotify watch on it, with `IN_IGNORED`, once the last descriptor,
/// mapping or unreceived `SCM_RIGHTS` message that holds it is gone, whoever held it. The watch
/// itself does not keep the file alive. Nothing blocks: `released()` reads what has happened
/// since it was last called.
public final class LastReferenceWatch: Sendable {
    /// inotify's `IN_DELETE_SELF`, the one event asked for; `IN_IGNORED` follows it.
    private static let deleteSelf: UInt32 = 0x400
    private static let ignored: UInt32 = 0x8000
    /// The header of `struct inotify_event`: wd, mask, cookie, len.
    private static let headerSize = 16

    /// The inotify descriptor, or -1 once closed; the lock keeps a watch from reaching a closed,
    /// reused number.
    private let descriptor: Mutex<Int32>

    /// A new inotify instance, non-blocking and close-on-exec.
    public init() throws(SystemCallError) {
        let fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0 else { throw SystemCallError("inotify_init1", errno: errno) }
        descriptor = Mutex(fd)
    }

    deinit {
        descriptor.withLock { fd in
            if fd >= 0 { Glibc.close(fd) }
            fd = -1
        }
    }

    /// Watches the file `file` (a descriptor this process holds) refers to; the watch's number,
    /// which `released()` gives back once the file is gone everywhere. `then` runs under the same
    /// lock as `released()`, so a caller can record the number before any release of it is read.
    public func watch<T>(_ file: Int32, then record: (Int32) -> T) -> Result<T, SystemCallError> {
        descriptor.withLock { fd -> Result<T, SystemCallError> in
            guard fd >= 0 else { return .failure(SystemCallError("inotify_add_watch", errno: EBADF)) }
            let wd = inotify_add_watch(fd, "/proc/self/fd/\(file)", Self.deleteSelf)
            guard wd >= 0 else { return .failure(SystemCallError("inotify_add_watch", errno: errno)) }
            return .success(record(wd))
        }
    }

    /// The watches whose files are gone since the last call, read without waiting; `forget`
    /// runs for them under the lock `watch` records under.
    public func released(_ forget: ([Int32]) -> Void) {
        descriptor.withLock { fd in
            guard fd >= 0 else { return }
            var gone: [Int32] = []
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                var offset = 0
                while offset + Self.headerSize <= count {
                    let wd = Int32(bitPattern: word(buffer, offset))
                    let mask = word(buffer, offset + 4)
                    if mask & Self.ignored != 0 { gone.append(wd) }
                    offset += Self.headerSize + Int(word(buffer, offset + 12))
                }
            }
            if !gone.isEmpty { forget(gone) }
        }
    }

    /// The native-endian 32-bit word at `offset`.
    private func word(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self) }
    }
}
