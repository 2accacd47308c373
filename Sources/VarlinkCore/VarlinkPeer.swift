import Posix

/// Who is on the other end of a connection, from the kernel (SO_PEERCRED).
public struct VarlinkPeer: Sendable, Equatable {
    /// The peer's process id at connect time.
    public let pid: Int32
    /// The peer's effective user id at connect time.
    public let uid: UInt32
    /// The peer's effective group id at connect time.
    public let gid: UInt32
    /// The path the peer bound its end of the socket to, if it did: clients seldom do, but it
    /// tells apart connections of one process (a test's callers) where the credentials cannot.
    public let address: String?

    /// Creates a peer; the server reads real ones from the kernel.
    public init(pid: Int32, uid: UInt32, gid: UInt32, address: String? = nil) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
        self.address = address
    }
}

extension VarlinkPeer {
    /// The peer the kernel's credentials name.
    package init(_ credentials: PeerCredentials, address: String? = nil) {
        self.init(pid: credentials.pid, uid: credentials.uid, gid: credentials.gid, address: address)
    }
}
