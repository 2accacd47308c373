import Glibc
// CLinuxIO's header includes sys/socket.h as well; in a whole-module (release) build the socket
// type constants are then found through it rather than Glibc, so this file names it too.
import CLinuxIO
import Synchronization

/// `poll()` on one descriptor that another thread can interrupt: the shape of every dedicated
/// reader thread here (the inotify reader, the session-bus loop). The waiting thread polls the
/// descriptor together with one end of a socket pair; `wake()` writes a byte to the other end.
///
/// A socket pair, not an eventfd: Glibc's Swift module does not import `sys/eventfd.h`, and
/// `socketpair` sets close-on-exec and non-blocking atomically where `pipe` cannot.
public final class WakeablePoll: Sendable {
    /// What one `wait` saw.
    public struct Outcome: Sendable, Equatable {
        /// The descriptor's `revents` (0 when it was not ready).
        public var events: Int16
        /// Whether `wake()` was called since the last wait that reported it.
        public var woken: Bool
        /// Whether poll itself failed (other than EINTR, which is reported as nothing ready).
        public var failed: Bool
    }

    /// The end the waiting thread polls.
    private let receiver: Int32
    /// The end `wake()` writes to.
    private let sender: Int32
    private let open = Atomic<Bool>(true)

    /// Why the socket pair could not be made: socketpair's errno.
    public struct SetupError: Error, Sendable, Equatable {
        /// socketpair's errno.
        public let errno: Int32
    }

    /// Makes the socket pair.
    public init() throws(SetupError) {
        var pair: [Int32] = [-1, -1]
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        guard socketpair(AF_UNIX, type, 0, &pair) == 0 else { throw SetupError(errno: errno) }
        receiver = pair[0]
        sender = pair[1]
    }

    deinit { close() }

    /// Makes the current or the next `wait` return with `woken`. A full socket buffer means a
    /// wake is already pending, so a failed write loses nothing.
    public func wake() {
        var byte: UInt8 = 1
        _ = write(sender, &byte, 1)
    }

    /// Polls `descriptor` for `events` and the wake end, for at most `timeout` milliseconds (-1:
    /// no limit); drains the wake end when it was woken.
    public func wait(on descriptor: Int32, for events: Int16, timeout: Int32) -> Outcome {
        var polled = [pollfd(fd: descriptor, events: events, revents: 0), pollfd(fd: receiver, events: Int16(POLLIN), revents: 0)]
        let ready = poll(&polled, 2, timeout)
        if ready < 0 { return Outcome(events: 0, woken: false, failed: errno != EINTR) }
        let woken = polled[1].revents != 0
        if woken {
            var drained = [UInt8](repeating: 0, count: 64)
            while read(receiver, &drained, drained.count) > 0 {}
        }
        return Outcome(events: polled[0].revents, woken: woken, failed: false)
    }

    /// Closes both ends; later calls do nothing. Call only once no thread waits any more.
    public func close() {
        guard open.exchange(false, ordering: .acquiringAndReleasing) else { return }
        Glibc.close(receiver)
        Glibc.close(sender)
    }
}
