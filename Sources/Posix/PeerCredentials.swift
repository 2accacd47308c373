#if canImport(Glibc)
import Glibc
#endif

/// Who is on the other end of a Unix socket, as the kernel recorded it at connect() (SO_PEERCRED).
///
/// Laid out as Linux's `struct ucred`, which Glibc's Swift module hides behind `_GNU_SOURCE`, so
/// it can be read with getsockopt directly or through an event loop's socket options.
public struct PeerCredentials: Sendable, Equatable {
    /// The peer's process id at connect time.
    public var pid: Int32 = 0
    /// The peer's effective user id at connect time.
    public var uid: UInt32 = 0
    /// The peer's effective group id at connect time.
    public var gid: UInt32 = 0

    /// Zeroes, for getsockopt to fill.
    public init() {}

    /// The credentials of the peer of `socket`, a connected Unix socket; nil when the kernel has none.
    public init?(socket: Int32) {
        #if os(Linux)
        var length = socklen_t(MemoryLayout<PeerCredentials>.size)
        var credentials = PeerCredentials()
        guard getsockopt(socket, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return nil }
        self = credentials
        #else
        return nil
        #endif
    }
}
