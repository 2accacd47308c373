#if canImport(Glibc)
import Glibc
#endif
import CFileCopy
import Synchronization

/// Fills a pipe from a file, for a reader that must get a file's bytes but no descriptor that
/// leads back to the file. Blocking: run it on a thread of its own (`DetachedThread`). It stops
/// when the bytes are all written, when the reader closes its end, when the reader takes nothing
/// for `idleTimeout`, or when `stop()` is called.
public final class PipeFeed: Sendable {
    /// How one feed ended.
    public enum Outcome: Equatable, Sendable {
        /// Every byte was written (this many: fewer than asked when the file shrank).
        case done(Int)
        /// The reader closed its end first.
        case readerGone
        /// The reader took nothing for the whole idle timeout.
        case idle
        /// `stop()` was called.
        case stopped
        case failed(SystemCallError)
    }

    private let stopping = Atomic<Bool>(false)
    /// How often a feed waiting on a full pipe looks whether it was stopped.
    private static let pollSlice: Int32 = 200

    /// A feed not started yet.
    public init() {}

    /// A new pipe, both ends close-on-exec, the write end non-blocking (the feed polls it).
    public static func pipe() -> Result<(read: Int32, write: Int32), SystemCallError> {
        var ends: [Int32] = [-1, -1]
        guard pipe2(&ends, O_CLOEXEC) == 0 else { return .failure(SystemCallError("pipe2", errno: errno)) }
        let flags = fcntl(ends[1], F_GETFL)
        guard flags >= 0, fcntl(ends[1], F_SETFL, flags | O_NONBLOCK) == 0 else {
            let code = errno
            close(ends[0])
            close(ends[1])
            return .failure(SystemCallError("fcntl(O_NONBLOCK)", errno: code))
        }
        return .success((ends[0], ends[1]))
    }

    /// Asks a running feed to stop at its next look (within a fifth of a second).
    public func stop() {
        stopping.store(true, ordering: .relaxed)
    }

    /// Writes `count` bytes of `source` from offset 0 into `pipe` (a non-blocking write end);
    /// `source`'s offset is not moved, and neither descriptor is closed. SIGPIPE is blocked on
    /// this thread, so a reader that leaves is an outcome, not a signal.
    public func run(from source: Int32, count: Int, to pipe: Int32, idleTimeout: Duration) -> Outcome {
        DescriptorWrite.withBrokenPipeSignalBlocked {
            self.feed(from: source, count: count, to: pipe, idleTimeout: idleTimeout)
        }
    }

    private func feed(from source: Int32, count: Int, to pipe: Int32, idleTimeout: Duration) -> Outcome {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var offset = 0
        var pending = 0..<0
        var lastProgress = ContinuousClock.now
        while true {
            if stopping.load(ordering: .relaxed) { return .stopped }
            if pending.isEmpty {
                guard offset < count else { return .done(offset) }
                let got = buffer.withUnsafeMutableBytes { pread(source, $0.baseAddress, min($0.count, count - offset), off_t(offset)) }
                if got < 0 {
                    if errno == EINTR { continue }
                    return .failed(SystemCallError("pread", errno: errno))
                }
                if got == 0 { return .done(offset) }
                pending = 0..<got
            }
            let written = buffer.withUnsafeBytes { bytes in
                write(pipe, bytes.baseAddress.map { $0 + pending.lowerBound }, pending.count)
            }
            if written > 0 {
                pending = (pending.lowerBound + written)..<pending.upperBound
                offset += written
                lastProgress = .now
                continue
            }
            switch errno {
            case EINTR:
                continue
            case EPIPE:
                return .readerGone
            case EAGAIN:
                if ContinuousClock.now - lastProgress > idleTimeout { return .idle }
                var entry = pollfd(fd: pipe, events: Int16(POLLOUT), revents: 0)
                _ = poll(&entry, 1, Self.pollSlice)
                if entry.revents & Int16(POLLERR) != 0 { return .readerGone }
            default:
                return .failed(SystemCallError("write", errno: errno))
            }
        }
    }
}
