/// Nothing answers on the socket path (or the path cannot be used); carries the errno text.
public struct VarlinkConnectError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The socket path tried.
    public let path: String
    /// The POSIX errno, e.g. ENOENT or ECONNREFUSED; 0 when the failure was not a system call's.
    public let errno: Int32
    /// The errno's text (swift-system's `Errno`), or the failure's own description.
    public let reason: String

    /// A failure to connect to `path`.
    package init(path: String, errno: Int32, reason: String) {
        self.path = path
        self.errno = errno
        self.reason = reason
    }

    /// "cannot connect to PATH: REASON".
    public var description: String { "cannot connect to \(self.path): \(self.reason)" }
}

/// A client call that ended without an answer from the server.
public enum VarlinkClientError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The server closed the connection before the final reply.
    case disconnected
    /// The client was closed, or a stream was abandoned midway (which closes the connection).
    case closed
    /// Another call or stream is still in progress on this client.
    case busy
    /// The server sent something other than a varlink reply; the connection was closed.
    case invalidReply(String)

    /// The reason in words.
    public var description: String {
        switch self {
        case .disconnected: "the varlink server closed the connection"
        case .closed: "the varlink connection is closed"
        case .busy: "a varlink call is already in progress on this connection"
        case .invalidReply(let reason): "invalid varlink reply: \(reason)"
        }
    }
}
