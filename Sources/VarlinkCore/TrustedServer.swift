#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Posix

/// The users a client accepts as the server behind a socket, as the kernel reports it
/// (SO_PEERCRED) right after connect() and before the client sends anything.
///
/// A socket path says nothing about who listens on it: another user who could create the
/// folder first can serve there. The client's own user is always accepted; a service user
/// (photod as a system service) only when named. Root is not accepted unless it is the
/// client's own user or the named one: a server running as root is not the user's daemon.
public struct TrustedServer: Sendable, Equatable {
    /// The accepted uids.
    public let userIDs: Set<UInt32>

    /// The client's own (effective) user only.
    public static var sameUser: TrustedServer { TrustedServer(userIDs: [geteuid()]) }

    /// The client's own user, and `serviceUser` when given.
    public static func sameUser(or serviceUser: UInt32?) -> TrustedServer {
        TrustedServer(userIDs: Set([geteuid()] + (serviceUser.map { [$0] } ?? [])))
    }

    /// The uid of the user called `name`, or of the number `name` when no user has that name.
    public static func userID(named name: String) -> UInt32? {
        UserDatabase.userID(named: name) ?? UInt32(name)
    }
}

/// The server behind the socket runs as a user the client does not trust; nothing was sent to it.
public struct VarlinkUntrustedServerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The socket path.
    public let path: String
    /// The server's uid, or nil when the kernel did not say.
    public let serverUserID: UInt32?
    /// The uids that would have been accepted.
    public let trusted: Set<UInt32>

    /// The server on `path` runs as `serverUserID`, none of `trusted`.
    package init(path: String, serverUserID: UInt32?, trusted: Set<UInt32>) {
        self.path = path
        self.serverUserID = serverUserID
        self.trusted = trusted
    }

    /// "refusing the server on PATH: it runs as uid N, …".
    public var description: String {
        let runs = serverUserID.map { "it runs as uid \($0)" } ?? "the kernel did not say which user runs it"
        let accepted = trusted.sorted().map(String.init).joined(separator: " or ")
        return "refusing the server on \(path): \(runs), not as uid \(accepted); nothing was sent to it"
    }
}
