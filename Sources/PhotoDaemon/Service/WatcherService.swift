import Logging
import ServiceLifecycle

/// The inotify watcher as a lifecycle service: consumes events and polls until shutdown.
struct WatcherService: Service {
    let watcher: LiveWatcher
    let logger: Logger

    func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { await watcher.consumeEvents() }
                    group.addTask { try await watcher.poll() }
                    try await group.next()
                    group.cancelAll()
                }
            }
        } catch where Task.isCancelled || Task.isShuttingDownGracefully {
            // Shutdown interrupted a poll's sleep: that is a clean stop.
            logger.debug("watcher stopped for shutdown: \(error)")
        }
    }
}
