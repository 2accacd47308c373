/// Why file descriptors could not be passed with a reply, on the sending or the receiving side.
public enum VarlinkFileDescriptorError: Error, Equatable, Sendable, CustomStringConvertible {
    /// More descriptors than one reply may carry; nothing was sent.
    case tooMany(count: Int, limit: Int)
    /// The connection is not a socket NIO lets us reach, so descriptors cannot ride on it; nothing was sent.
    case unsupportedTransport
    /// sendmsg refused the reply (EBADF: a descriptor is not open, for one); nothing was sent.
    case sendFailed(errno: Int32, reason: String)
    /// The server sent more descriptors than the client has room for; the client closed every
    /// one it received and the connection.
    case truncated(limit: Int)
    /// Nothing arrived within the receive timeout; the connection was closed, since a late
    /// reply would be taken as the next call's.
    case timedOut(seconds: Double)
    /// recvmsg or send failed on the client; the connection was closed.
    case socketFailed(errno: Int32, reason: String)

    /// The reason in words.
    public var description: String {
        switch self {
        case .tooMany(let count, let limit):
            "a varlink reply carries at most \(limit) file descriptors, not \(count)"
        case .unsupportedTransport:
            "file descriptors can only be passed on a Unix socket connection"
        case .sendFailed(let errno, let reason):
            "cannot send the reply with its file descriptors: \(reason) (errno \(errno))"
        case .truncated(let limit):
            "the server sent more than \(limit) file descriptors with one reply"
        case .timedOut(let seconds):
            "no reply from the varlink server within \(seconds) s"
        case .socketFailed(let errno, let reason):
            "varlink socket error: \(reason) (errno \(errno))"
        }
    }
}
