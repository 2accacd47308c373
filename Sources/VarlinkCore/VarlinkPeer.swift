import Posix

/// Who is on the other end of a connection, from the kernel (SO_PEERCRED).
public struct VarlinkPeer: Sendable, Equatable {
    /// The peer's process id at connect time.
    public let pid: Int32
    /// The peer's effective user id at connect time.
    public let uid: UInt32
    /// The peer's effective group id at connect time.
    public let gid: UInt32

    /// Creates a peer; the server reads real ones from the kernel.
    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }
}

extension VarlinkPeer {
    /// The peer the kernel's credentials name.
    package init(_ credentials: PeerCredentials) {
        self.init(pid: credentials.pid, uid: credentials.uid, gid: credentials.gid)
    }
}
