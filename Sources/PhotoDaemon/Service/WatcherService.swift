import Logging
import ServiceLifecycle

/// The inotify watcher as a lifecycle service: its loops run until shutdown.
struct WatcherService: Service {
    let watcher: LiveWatcher

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await watcher.run()
        }
    }
}
