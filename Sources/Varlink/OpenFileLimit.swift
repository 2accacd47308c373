#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The process's open-file limit (RLIMIT_NOFILE), which caps the connections a server can hold.
public enum OpenFileLimit {
    /// The soft and hard limits.
    public struct Limits: Sendable, Equatable {
        /// What the process may open now.
        public let soft: UInt64
        /// How far the soft limit may be raised without privileges.
        public let hard: UInt64
    }

    /// The limits now, or nil when the kernel will not say.
    public static func current() -> Limits? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        return Limits(soft: UInt64(limit.rlim_cur), hard: UInt64(limit.rlim_max))
    }

    /// Raises the soft limit to the hard one, as a daemon holding many sockets should at start
    /// (the common soft default of 1024 is meant for select(), which NIO does not use).
    /// Returns the limits in force afterwards.
    @discardableResult
    public static func raiseToHardLimit() -> Limits? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        if limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        return self.current()
    }
}
