#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import NIOCore
import Posix
import VarlinkCore

extension VarlinkPeer {
    /// The peer of `channel` as the kernel recorded it at connect(), with the path its end is
    /// bound to (if any), or nil where unsupported.
    static func of(_ channel: any Channel) async -> VarlinkPeer? {
        #if os(Linux)
        guard let provider = channel as? any SocketOptionProvider else { return nil }
        let credentials: PeerCredentials? = try? await provider.unsafeGetSocketOption(
            level: NIOBSDSocket.OptionLevel(rawValue: SOL_SOCKET),
            name: NIOBSDSocket.Option(rawValue: SO_PEERCRED)
        ).get()
        // An unbound client's address has an empty path.
        let address = channel.remoteAddress?.pathname.flatMap { $0.isEmpty ? nil : $0 }
        return credentials.map { VarlinkPeer($0, address: address) }
        #else
        return nil
        #endif
    }
}
