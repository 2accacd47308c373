import ServiceLifecycle

/// The inotify watcher as a lifecycle service: consumes events and polls until shutdown.
struct WatcherService: Service {
    let watcher: LiveWatcher

    func run() async throws {
        try await cancelWhenGracefulShutdown {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await watcher.consumeEvents() }
                group.addTask { try await watcher.poll() }
                try await group.next()
                group.cancelAll()
            }
        }
    }
}
