#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import NIOCore
import NIOPosix

/// The server's "is anyone listening?" check before it takes over a socket path.
enum SocketProbe {
    /// Whether a server accepts connections on `path`; a refused connection means a stale file.
    static func isAnswered(_ path: String) async throws -> Bool {
        do {
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connect(unixDomainSocketPath: path).get()
            try? await channel.close()
            return true
        } catch let error as IOError where error.errnoCode == ECONNREFUSED || error.errnoCode == ENOENT {
            return false
        }
    }
}
