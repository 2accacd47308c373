import ServiceLifecycle
import Varlink

/// The varlink server as a lifecycle service: serves until graceful shutdown.
struct VarlinkService: Service {
    let server: VarlinkServer

    func run() async throws {
        try await cancelWhenGracefulShutdown {
            try await server.run()
        }
    }
}
