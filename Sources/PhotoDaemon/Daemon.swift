#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import NIOPosix
import PhotoAPI
import ServiceLifecycle
import Store
import Systemd
import Varlink
import Watcher

/// Builds photod's pieces from a configuration and runs them until SIGTERM or SIGINT.
public struct Daemon: Sendable {
    let config: DaemonConfig
    let logger: Logger
    /// Loads the config again, for a reload on SIGHUP.
    let reloadConfig: @Sendable () throws -> DaemonConfig
    /// Who a connecting process is. Nil in photod: the kernel's peer credentials and /proc
    /// decide. The in-process test harness names each connection's caller instead.
    var identify: (@Sendable (VarlinkPeer?) -> Caller)?
    /// Whether SIGTERM/SIGINT shut down and SIGHUP reloads. False in the in-process harness,
    /// whose process has many daemons and stops each by cancelling its task.
    var handlesSignals = true
    /// Called once the start-up reconcile has finished, after READY=1.
    var onReady: @Sendable () async -> Void = {}

    /// A daemon for `config`, logging through `logger`; `reloadConfig` reads it again on SIGHUP.
    public init(config: DaemonConfig, logger: Logger,
                reloadConfig: @escaping @Sendable () throws -> DaemonConfig) {
        self.config = config
        self.logger = logger
        self.reloadConfig = reloadConfig
    }

    /// The exit status for an error that stopped photod: 75 (EX_TEMPFAIL) when another photod
    /// holds the index — try again once it has stopped — and 1 for anything else.
    public static func exitStatus(for error: any Error) -> Int32 {
        if case StoreError.inUse = error { return 75 }
        return 1
    }

    /// Runs the daemon; returns after a graceful shutdown.
    public func run() async throws {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        // Blocking file work only (walks, reading photos): one thread per core. The store has
        // threads of its own, so a write transaction overlaps with reading files.
        let pool = NIOThreadPool(numberOfThreads: cores)
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
        let images = ImageSide(config: config, cores: cores, logger: logger)
        // First of all: one photod per index. Held until this function returns.
        let lock = try IndexLock(database: config.database)
        defer { withExtendedLifetime(lock) {} }
        let store = try Store(path: config.database, changeRetention: config.changeRetention,
                              changeRetentionBytes: config.changeRetentionBytes, onCommit: {
            hub.publish($0)
            images.janitor.forget($0)
        })
        IndexOpeningLog.report(store.opening, index: store.path, logger: logger)
        try await store.write { try $0.limitSize(toBytes: config.indexSizeLimit) }
        let regrouper = Regrouper(store: store, rules: config.grouping, sources: config.descriptionSources, logger: logger)
        do {
            try await regrouper.rereadIfSourcesChanged()
            try await regrouper.regroupIfRulesChanged()
        } catch {
            // A full disk must not keep photod from serving the index it has; the new rules
            // are applied at a start with room to write them.
            guard let reason = Store.outOfSpaceReason(error) else { throw error }
            logger.error("the changed grouping rules or description sources wait for the next start: the index cannot be written (\(reason))")
        }
        let roots = LibraryRoots(LibraryRoot.distinct(config.roots))
        let state = LibraryState()
        var mapper = AssetMapper(rules: config.grouping)
        // 4,000 files a transaction: each commit costs about 6 ms besides its rows (a first index of
        // 100,000 photos spent 2.05 s in write transactions with 1,000 a batch, 1.5-1.7 s with 4,000).
        let ignore = LibraryIgnore(rules: config.ignore, roots: roots)
        var scanner = Scanner(
            store: store, reader: AssetReader(rules: config.grouping, sources: config.descriptionSources), pool: pool,
            parallelism: cores, batchSize: 4000, logger: logger)
        scanner.ignore = ignore
        let inotify = try Inotify()
        let budget = config.maxWatches > 0 ? config.maxWatches : WatchSet.kernelBudget()
        let coverage = FolderCoverage(watches: WatchSet(inotify: inotify, budget: budget), roots: roots, state: state,
                                      pollInterval: config.pollInterval, ignore: ignore, logger: logger)
        let indexer = Indexer(roots: roots, scanner: scanner, coverage: coverage, state: state,
                              polled: PolledMounts(interval: config.remotePollInterval, perRoot: config.remotePollIntervals),
                              logger: logger)
        mapper.volumes = indexer.volumes
        // Threads stuck in a mount that does not answer are not waited for.
        defer { indexer.folderThreads.shutDown() }
        let watcher = LiveWatcher(inotify: inotify, coverage: coverage, indexer: indexer, state: state,
                                  pollInterval: config.pollInterval, logger: logger)
        // The start-up reconcile watches each folder just before its walk lists it (Indexer.run),
        // so nothing that changes while it runs is missed, without a listing of the tree before it.
        logger.info("watching folders as they are walked (budget \(budget) inotify watches)")
        defer { inotify.close() }
        let authorizer = try await Authorizer(store: store, policy: config.authorization, logger: logger) { app, visibility in
            hub.publish(visibility: visibility, to: app)
        }
        let gate = AccessGate(authorizer: authorizer, rules: config.grouping)
        let changes = ChangeRequests(authorizer: authorizer, logger: logger)
        let picks = PickRequests(authorizer: authorizer, logger: logger)
        let importSettings = ImportSettings(config.importing, roots: config.roots)
        let api = LibraryAPI(store: store, indexer: indexer, state: state, mapper: mapper, hub: hub,
                             watches: coverage.watches, gate: gate, images: images,
                             delivery: images.delivery(store: store, logger: logger),
                             importing: ImportCall(settings: importSettings, indexer: indexer, store: store, mapper: mapper,
                                                   authorizer: authorizer, logger: logger),
                             describing: SetDescriptionCall(
                                writer: DescriptionWriter(reader: AssetReader(rules: config.grouping,
                                                                              sources: config.descriptionSources)),
                                indexer: indexer, store: store, mapper: mapper, logger: logger),
                             changes: changes, picking: PickCall(picks: picks), logger: logger)
        let authorizationAPI = AuthorizationAPI(
            authorizer: authorizer, changes: changes, picks: picks, catalog: SelectionCatalog(store: store, rules: config.grouping),
            logger: logger)
        let libraryRoutes = api.routes
        let authorizationRoutes = authorizationAPI.routes
        // A handler missing for a method the interfaces promise is a bug: refuse to start.
        try libraryRoutes.check()
        try authorizationRoutes.check()
        let callers = CallerResolver(trusted: config.trusted)
        logger.info("owner: \(callers.ownerClient)\(config.trusted.isEmpty ? "" : ", trusted: " + config.trusted.joined(separator: ", "))")
        var serverConfiguration = VarlinkService.configure(for: config, callers: callers, logger: logger)
        if let identify { serverConfiguration.attach = { identify($0) } }
        // Socket activation: systemd's socket named "varlink" (photod.socket); else bind our own.
        let passed = SystemdSockets.take(named: "varlink")
        let listener: VarlinkServer.Listener = passed.map { .inheritedFileDescriptor($0.descriptor) } ?? .path(config.socket)
        let server = VarlinkServer(
            listener: listener,
            interfaces: [libraryRoutes.varlinkInterface, authorizationRoutes.varlinkInterface],
            info: VarlinkServiceInfo(vendor: "photod", product: "photod", version: PhotodVersion.current,
                                     url: "https://github.com/photod/photod"),
            configuration: serverConfiguration,
            logger: logger)
        try await server.start()
        let socketText = passed.map { "the socket systemd passed (fd \($0.descriptor), \($0.name))" } ?? config.socket
        logger.info("""
            photod \(PhotodVersion.current) listening on \(socketText); index \(config.database); \
            roots \(roots.all.map(\.configured).joined(separator: ", "))
            """)

        let notifier = SystemdNotifier()
        let systemd = SystemdService(notifier: notifier, state: state, store: store, logger: logger)
        let reloader = ConfigReloader(
            config: config, load: reloadConfig, indexer: indexer, authorizer: authorizer, callers: callers,
            importing: importSettings, notifier: notifier, statusLine: { await systemd.readyStatusLine() }, logger: logger)
        let readyLogger = logger
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [
                    .init(service: RunsUntilShutdown(base: VarlinkService(server: server), name: "the varlink server")),
                    .init(service: RunsUntilShutdown(base: AuthorizationService(authorizer: authorizer, changes: changes,
                                                                               picks: picks),
                                                     name: "the request deadlines")),
                    .init(service: RunsUntilShutdown(base: WatcherService(watcher: watcher), name: "the file watcher")),
                    .init(service: IndexerService(
                        indexer: indexer, interval: config.rescanInterval, logger: logger,
                        onReady: {
                            readyLogger.notice("ready: the index matches the disk")
                            notifier.ready(status: await systemd.readyStatusLine())
                            await onReady()
                        }),
                          successTerminationBehavior: .ignore),
                    .init(service: RunsUntilShutdown(base: ReloadService(reloader: reloader, trapsSignal: handlesSignals),
                                                     name: "the reload handler")),
                    .init(service: RunsUntilShutdown(base: ImageService(
                        side: images,
                        prefiller: config.thumbnails.prefill ? CachePrefiller(
                            store: store, side: images, delivery: images.delivery(store: store, logger: logger, background: true),
                            state: state, logger: logger) : nil,
                        logger: logger), name: "the image side")),
                    // Last, so that shutdown reaches it first and STOPPING=1 goes out at once.
                    .init(service: RunsUntilShutdown(base: systemd, name: "systemd's status and watchdog")),
                ],
                gracefulShutdownSignals: handlesSignals ? [.sigterm, .sigint] : [],
                logger: logger))
        do {
            try await group.run()
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }
}
