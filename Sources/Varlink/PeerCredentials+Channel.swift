#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import NIOCore
import Posix
import VarlinkCore

extension VarlinkPeer {
    /// The peer of `channel` as the kernel recorded it at connect(), or nil where unsupported.
    static func of(_ channel: any Channel) async -> VarlinkPeer? {
        #if os(Linux)
        guard let provider = channel as? any SocketOptionProvider else { return nil }
        let credentials: PeerCredentials? = try? await provider.unsafeGetSocketOption(
            level: NIOBSDSocket.OptionLevel(rawValue: SOL_SOCKET),
            name: NIOBSDSocket.Option(rawValue: SO_PEERCRED)
        ).get()
        return credentials.map(VarlinkPeer.init)
        #else
        return nil
        #endif
    }
}
