import Foundation
import Logging
import NIOPosix
import PhotoAPI
import ServiceLifecycle
import Store
import Varlink
import Watcher

/// Builds photod's pieces from a configuration and runs them until SIGTERM or SIGINT.
public struct Daemon {
    let config: DaemonConfig
    let logger: Logger

    /// A daemon for `config`, logging through `logger`.
    public init(config: DaemonConfig, logger: Logger) {
        self.config = config
        self.logger = logger
    }

    /// Runs the daemon; returns after a graceful shutdown.
    public func run() async throws {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        // One thread more than cores, so a write transaction overlaps with reading files.
        let pool = NIOThreadPool(numberOfThreads: cores + 1)
        pool.start()
        do {
            try await serve(pool: pool, cores: cores)
        } catch {
            try? await pool.shutdownGracefully()
            throw error
        }
        try? await pool.shutdownGracefully()
        logger.info("photod stopped")
    }

    private func serve(pool: NIOThreadPool, cores: Int) async throws {
        let hub = ChangeHub(queueLimit: config.subscriberQueue)
        let store = try Store(path: config.database, changeRetention: config.changeRetention,
                              onCommit: { hub.publish($0) })
        try await Regrouper(store: store, rules: config.grouping, pool: pool, logger: logger).regroupIfRulesChanged()
        let roots = LibraryRoot.distinct(config.roots)
        let state = LibraryState()
        let mapper = AssetMapper(rules: config.grouping)
        let scanner = Scanner(
            store: store, reader: AssetReader(rules: config.grouping), pool: pool, parallelism: cores,
            batchSize: 1000, logger: logger, publish: { _ in })
        let indexer = Indexer(roots: roots, scanner: scanner, state: state, logger: logger)
        let inotify = try Inotify()
        let budget = config.maxWatches > 0 ? config.maxWatches : WatchSet.kernelBudget()
        let watcher = LiveWatcher(inotify: inotify, budget: budget, indexer: indexer, state: state,
                                  pollInterval: config.pollInterval, logger: logger)
        await indexer.setCover { watcher.cover($0) }
        // Watch before the first reconcile, so nothing that changes while it runs is missed.
        watcher.coverRoots()
        logger.info("watching \(watcher.watches.watchCount) folders (budget \(budget) inotify watches)")
        defer { inotify.close() }
        let authorizer = try Authorizer(store: store, policy: config.authorization, logger: logger) { app, visibility in
            hub.publish(visibility: visibility, to: app)
        }
        let gate = AccessGate(authorizer: authorizer, rules: config.grouping)
        let api = LibraryAPI(store: store, indexer: indexer, state: state, mapper: mapper, pool: pool, hub: hub,
                             watches: watcher.watches, gate: gate, logger: logger)
        let authorizationAPI = AuthorizationAPI(authorizer: authorizer, logger: logger)
        let callers = CallerResolver(trusted: config.trusted)
        logger.info("owner: \(callers.ownerClient)\(config.trusted.isEmpty ? "" : ", trusted: " + config.trusted.joined(separator: ", "))")
        var serverConfiguration = VarlinkServer.Configuration()
        serverConfiguration.maxConnections = config.maxConnections
        let connectionLogger = logger
        serverConfiguration.attach = { peer in
            let caller = callers.resolve(peer)
            if case .unidentified(let reason) = caller {
                connectionLogger.warning("refusing a client photod cannot identify", metadata: ["reason": "\(reason)"])
            } else {
                connectionLogger.debug("client identified", metadata: ["app": "\(caller.appID)", "owner": "\(caller.isOwner)"])
            }
            return caller
        }
        let server = VarlinkServer(
            listener: .path(config.socket),
            interfaces: [api.interface, authorizationAPI.interface],
            info: VarlinkServiceInfo(vendor: "photod", product: "photod", version: PhotodVersion.current,
                                     url: "https://github.com/photod/photod"),
            configuration: serverConfiguration,
            logger: logger)
        try await server.start()
        logger.info("""
            photod \(PhotodVersion.current) listening on \(config.socket); index \(config.database); \
            roots \(roots.map(\.configured).joined(separator: ", "))
            """)

        let readyLogger = logger
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [
                    .init(service: VarlinkService(server: server)),
                    .init(service: WatcherService(watcher: watcher, logger: logger)),
                    .init(service: IndexerService(
                        indexer: indexer, interval: config.rescanInterval, logger: logger,
                        onReady: { readyLogger.notice("ready: the index matches the disk") }),
                          successTerminationBehavior: .ignore),
                ],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger))
        try await group.run()
    }
}
