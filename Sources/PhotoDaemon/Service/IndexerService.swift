import Logging
import ServiceLifecycle

/// The indexer as a lifecycle service. Its task group holds the one loop that carries out
/// index commands, the start-up reconcile followed by the periodic one, and the catch-up
/// retries while the index cannot be written; shutdown cancels them all together, and a
/// reconcile stops between batches.
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
                try await withThrowingDiscardingTaskGroup { group in
                    group.addTask { await indexer.runCommands() }
                    group.addTask { try await indexer.keepCatchingUp() }
                    group.addTask { try await reconcileNowAndPeriodically() }
                }
            }
        } catch where Task.isCancelled || Task.isShuttingDownGracefully {
            // Shutdown interrupted a sleep or a reconcile between batches: that is a clean stop.
            logger.debug("indexer stopped for shutdown: \(error)")
        }
    }

    /// The start-up reconcile, readiness, then one reconcile every `interval` seconds.
    private func reconcileNowAndPeriodically() async throws {
        try await reconcile(reason: "start-up")
        // Ready even when the index could not be written: it serves what it has, and Status
        // says why it is degraded.
        await onReady()
        ProcessMemory.startedUp()
        while interval > 0 {
            try await Task.sleep(for: .seconds(interval))
            try await reconcile(reason: "periodic, every \(interval) s")
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
