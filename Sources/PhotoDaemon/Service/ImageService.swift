import Logging
import ServiceLifecycle

/// The long-running part of the image side: sweeps thumbnails of files that left, stops idle
/// workers, fills the cache ahead of time when configured, and stops the workers on shutdown.
struct ImageService: Service {
    let side: ImageSide
    let prefiller: CachePrefiller?
    let logger: Logger

    func run() async throws {
        await withDiscardingTaskGroup { group in
            group.addTask { await side.janitor.run(cache: side.cache, logger: logger) }
            group.addTask {
                try? await cancelWhenGracefulShutdown {
                    while true {
                        try await Task.sleep(for: .seconds(30))
                        await side.pool.stopIdle(longerThan: .seconds(60))
                        await side.backgroundPool?.stopIdle(longerThan: .seconds(60))
                    }
                }
            }
            if let prefiller {
                group.addTask {
                    do {
                        try await cancelWhenGracefulShutdown { try await prefiller.run() }
                    } catch {
                        logger.debug("thumbnail prefill stopped: \(error)")
                    }
                }
            }
            group.addTask {
                try? await gracefulShutdown()
                side.janitor.finish()
                await side.pool.shutdown()
                await side.backgroundPool?.shutdown()
            }
        }
    }
}
