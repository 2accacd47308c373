#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import NIOCore
import VarlinkCore

extension Posix {
    /// The peer's credentials as the kernel recorded them at connect(), or nil where unsupported.
    static func peer(of channel: any Channel) async -> VarlinkPeer? {
        #if os(Linux)
        guard let provider = channel as? any SocketOptionProvider else { return nil }
        let credentials: UnixCredentials? = try? await provider.unsafeGetSocketOption(
            level: NIOBSDSocket.OptionLevel(rawValue: SOL_SOCKET),
            name: NIOBSDSocket.Option(rawValue: SO_PEERCRED)
        ).get()
        return credentials.map { VarlinkPeer(pid: $0.pid, uid: $0.uid, gid: $0.gid) }
        #else
        return nil
        #endif
    }
}
