#if canImport(Glibc)
import Glibc
#endif
import CLinuxIO

/// An epoll instance (level-triggered): one thread waiting on many descriptors at once, each
/// registered with a token that `wait` hands back.
public final class Epoll: Sendable {
    /// Events to wait for, or that happened (EPOLLIN and friends).
    public struct Events: OptionSet, Sendable {
        public let rawValue: UInt32
        /// Makes a set from epoll's bits.
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// Bytes to read, or end-of-file (EPOLLIN).
        public static let input = Events(rawValue: EPOLLIN.rawValue)
        /// Room to write (EPOLLOUT).
        public static let output = Events(rawValue: EPOLLOUT.rawValue)
        /// The peer shut down its writing side (EPOLLRDHUP).
        public static let peerClosed = Events(rawValue: EPOLLRDHUP.rawValue)
        /// Hang-up (EPOLLHUP); always reported, never asked for.
        public static let hangUp = Events(rawValue: EPOLLHUP.rawValue)
        /// An error on the descriptor (EPOLLERR); always reported, never asked for.
        public static let error = Events(rawValue: EPOLLERR.rawValue)
    }

    /// One ready descriptor, by the token it was registered with.
    public struct Ready: Sendable {
        /// The token given to `add`.
        public let token: UInt64
        /// What happened.
        public let events: Events
    }

    private let descriptor: Int32

    /// A new epoll instance, closed on exec.
    public init() throws(SystemCallError) {
        self.descriptor = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard self.descriptor >= 0 else { throw SystemCallError("epoll_create1", errno: errno) }
    }

    deinit {
        close(self.descriptor)
    }

    /// Starts watching `target` for `events`.
    public func add(_ target: Int32, _ events: Events, token: UInt64) throws(SystemCallError) {
        try self.control(EPOLL_CTL_ADD, target, events, token: token)
    }

    /// Changes what `target` is watched for.
    public func modify(_ target: Int32, _ events: Events, token: UInt64) throws(SystemCallError) {
        try self.control(EPOLL_CTL_MOD, target, events, token: token)
    }

    /// Stops watching `target` (closing it would too, unless it has duplicates).
    public func remove(_ target: Int32) {
        var event = epoll_event()
        _ = epoll_ctl(self.descriptor, EPOLL_CTL_DEL, target, &event)
    }

    /// Up to `limit` ready descriptors, waiting at most `timeout` milliseconds (-1: no limit);
    /// empty on timeout or interruption, nil when epoll_wait fails otherwise.
    public func wait(limit: Int, timeout: Int32) -> [Ready]? {
        var events = [epoll_event](repeating: epoll_event(), count: max(limit, 1))
        let count = epoll_wait(self.descriptor, &events, Int32(events.count), timeout)
        guard count >= 0 else { return errno == EINTR ? [] : nil }
        return events[..<Int(count)].map { Ready(token: $0.data.u64, events: Events(rawValue: $0.events)) }
    }

    private func control(_ operation: Int32, _ target: Int32, _ events: Events, token: UInt64) throws(SystemCallError) {
        var event = epoll_event()
        event.events = events.rawValue
        event.data.u64 = token
        guard epoll_ctl(self.descriptor, operation, target, &event) == 0 else {
            throw SystemCallError("epoll_ctl", errno: errno)
        }
    }
}
