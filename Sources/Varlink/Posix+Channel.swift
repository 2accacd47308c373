#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import NIOCore
import VarlinkCore

extension Posix {
    /// The peer's credentials as the kernel recorded them at connect(), and the path its end is
    /// bound to (if any), or nil where unsupported.
    static func peer(of channel: any Channel) async -> VarlinkPeer? {
        #if os(Linux)
        guard let provider = channel as? any SocketOptionProvider else { return nil }
        let credentials: UnixCredentials? = try? await provider.unsafeGetSocketOption(
            level: NIOBSDSocket.OptionLevel(rawValue: SOL_SOCKET),
            name: NIOBSDSocket.Option(rawValue: SO_PEERCRED)
        ).get()
        // An unbound client's address has an empty path.
        let address = channel.remoteAddress?.pathname.flatMap { $0.isEmpty ? nil : $0 }
        return credentials.map { VarlinkPeer(pid: $0.pid, uid: $0.uid, gid: $0.gid, address: address) }
        #else
        return nil
        #endif
    }
}
