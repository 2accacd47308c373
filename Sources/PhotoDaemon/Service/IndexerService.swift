import Logging
import ServiceLifecycle

/// The start-up reconcile, then a periodic one; stops between batches on graceful shutdown.
struct IndexerService: Service {
    let indexer: Indexer
    /// Seconds between periodic reconciles; 0 means none.
    let interval: Int
    let logger: Logger
    /// Called once the start-up reconcile has finished (readiness: the log line and `READY=1`).
    let onReady: @Sendable () async -> Void

    func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                _ = try await indexer.reconcile(reason: "start-up")
                await onReady()
                while interval > 0 {
                    try await Task.sleep(for: .seconds(interval))
                    _ = try await indexer.reconcile(reason: "periodic, every \(interval) s")
                }
                // Nothing periodic to do: stay a member of the group until shutdown.
                try await gracefulShutdown()
            }
        } catch where Task.isCancelled || Task.isShuttingDownGracefully {
            // Shutdown interrupted a sleep or a reconcile between batches: that is a clean stop.
            logger.debug("indexer stopped for shutdown: \(error)")
        }
    }
}
