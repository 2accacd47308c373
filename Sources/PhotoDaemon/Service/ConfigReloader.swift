import Logging
import ServiceLifecycle
import Synchronization
import Systemd
import UnixSignals

/// Re-reads the config on SIGHUP (`systemctl --user reload photod`) and applies what can change
/// while running: roots (added ones are watched and scanned, removed ones leave the index,
/// everything else keeps its ids) and permissions. Other keys are reported as waiting for a
/// restart. A config that does not load leaves the running one in place.
final class ConfigReloader: Sendable {
    private let running: Mutex<DaemonConfig>
    private let load: @Sendable () throws -> DaemonConfig
    private let indexer: Indexer
    private let authorizer: Authorizer
    private let callers: CallerResolver
    private let importing: ImportSettings
    private let notifier: SystemdNotifier
    private let statusLine: @Sendable () async -> String
    private let logger: Logger

    init(config: DaemonConfig, load: @escaping @Sendable () throws -> DaemonConfig, indexer: Indexer,
         authorizer: Authorizer, callers: CallerResolver, importing: ImportSettings, notifier: SystemdNotifier,
         statusLine: @escaping @Sendable () async -> String, logger: Logger) {
        running = Mutex(config)
        self.load = load
        self.indexer = indexer
        self.authorizer = authorizer
        self.callers = callers
        self.importing = importing
        self.notifier = notifier
        self.statusLine = statusLine
        self.logger = logger
    }

    /// One reload, bracketed by RELOADING=1 and READY=1 so `systemctl reload` waits for it.
    func reload() async {
        notifier.reloading(status: "Reloading the config")
        logger.notice("SIGHUP: reloading the config")
        do {
            let new = try load()
            let old = running.withLock { $0 }
            if new.roots != old.roots {
                let change = try await indexer.replaceRoots(LibraryRoot.distinct(new.roots))
                let parts = [("added", change.added), ("removed", change.removed)].filter { !$0.1.isEmpty }
                    .map { "\($0.0) \($0.1.joined(separator: ", "))" }
                logger.notice("roots reloaded: \(parts.isEmpty ? "the same folders" : parts.joined(separator: "; "))")
            }
            if new.trusted != old.trusted {
                callers.trusted = new.trusted
                logger.notice("trusted programs reloaded: \(new.trusted.joined(separator: ", "))")
            }
            await authorizer.apply(policy: new.authorization)
            if new.importing != old.importing || new.roots != old.roots {
                importing.update(new.importing, roots: new.roots)
                if new.importing != old.importing { logger.notice("[import] reloaded") }
            }
            if new.indexSizeLimit != old.indexSizeLimit {
                try await indexer.limitIndexSize(toBytes: new.indexSizeLimit)
                logger.notice("index_size_limit reloaded: \(new.indexSizeLimit.map { "\($0 >> 20) MiB" } ?? "none")")
            }
            let waiting = Self.restartOnly(old: old, new: new)
            if !waiting.isEmpty {
                logger.warning("changed in the config, taking effect at the next start: \(waiting.joined(separator: ", "))")
            }
            running.withLock { $0 = new }
        } catch {
            logger.error("reload failed, the running config stays: \(error)")
        }
        notifier.ready(status: await statusLine())
    }

    /// Keys whose new value only a restart applies.
    static func restartOnly(old: DaemonConfig, new: DaemonConfig) -> [String] {
        var keys: [String] = []
        if old.database != new.database { keys.append("database") }
        if old.socket != new.socket { keys.append("socket") }
        if old.logLevel != new.logLevel { keys.append("log_level") }
        if old.maxConnections != new.maxConnections { keys.append("max_connections") }
        if old.connectionLimits != new.connectionLimits { keys.append("the connection limits") }
        if old.rescanInterval != new.rescanInterval { keys.append("rescan_interval") }
        if old.pollInterval != new.pollInterval { keys.append("poll_interval") }
        if old.remotePollInterval != new.remotePollInterval { keys.append("remote_poll_interval") }
        // As remote_poll_interval: the poll loop is given its intervals when it starts.
        if old.remotePollIntervals != new.remotePollIntervals { keys.append("[remote_poll_intervals]") }
        if old.maxWatches != new.maxWatches { keys.append("max_watches") }
        if old.changeRetention != new.changeRetention { keys.append("change_retention") }
        if old.changeRetentionBytes != new.changeRetentionBytes { keys.append("change_retention_bytes") }
        if old.subscriberQueue != new.subscriberQueue { keys.append("subscriber_queue") }
        if old.grouping != new.grouping || old.descriptionSources != new.descriptionSources { keys.append("[groups]") }
        if old.ignore != new.ignore { keys.append("[library] ignore") }
        return keys
    }
}

/// Runs a reload for every SIGHUP until shutdown.
struct ReloadService: Service {
    let reloader: ConfigReloader
    /// False where the process is not photod's own (the in-process test harness): then it only waits for shutdown.
    var trapsSignal = true

    func run() async throws {
        guard trapsSignal else {
            try? await gracefulShutdown()
            return
        }
        for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() {
            await reloader.reload()
        }
    }
}
