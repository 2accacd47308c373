import Logging
import ServiceLifecycle

/// The start-up reconcile, then a periodic one; stops between batches on graceful shutdown.
/// While the index cannot be written (a full disk), it keeps trying to catch up, and the
/// daemon keeps serving what the index has.
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
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try await indexer.keepCatchingUp() }
                    try await reconcile(reason: "start-up")
                    // Ready even when the index could not be written: it serves what it has,
                    // and Status says why it is degraded.
                    await onReady()
                    while interval > 0 {
                        try await Task.sleep(for: .seconds(interval))
                        try await reconcile(reason: "periodic, every \(interval) s")
                    }
                    // Nothing periodic to do: the catch-up loop runs until shutdown.
                    try await group.next()
                }
            }
        } catch where Task.isCancelled || Task.isShuttingDownGracefully {
            // Shutdown interrupted a sleep or a reconcile between batches: that is a clean stop.
            logger.debug("indexer stopped for shutdown: \(error)")
        }
    }

    /// One reconcile; a full disk is not the end of the daemon: the indexer has recorded it.
    private func reconcile(reason: String) async throws {
        do {
            _ = try await indexer.reconcile(reason: reason)
        } catch is UnwritableIndexError {
            logger.debug("reconcile (\(reason)) stopped: the index cannot be written")
        }
    }
}
