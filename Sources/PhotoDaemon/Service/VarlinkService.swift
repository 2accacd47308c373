import LogLines
import Logging
import SafeText
import PhotoAPI
import ServiceLifecycle
import Varlink

/// The varlink server as a lifecycle service: serves until graceful shutdown.
struct VarlinkService: Service {
    let server: VarlinkServer

    func run() async throws {
        try await cancelWhenGracefulShutdown {
            try await server.run()
        }
    }

    /// Readies the process for `config`'s connections and returns the server's configuration.
    ///
    /// Raises the open-file limit to the hard limit first, so a flood of connections runs into
    /// the server's own admission rules, not into EMFILE where the owner would be refused too.
    /// The owner is who `Caller` says it is, as decided when the connection was attached, and
    /// only ever a process of `callers`' own user, so others past their share are refused unread.
    static func configure(for config: DaemonConfig, callers: CallerResolver, logger: Logger) -> VarlinkServer.Configuration {
        if let limits = OpenFileLimit.raiseToHardLimit() {
            logger.debug("open-file limit", metadata: ["soft": "\(limits.soft)", "hard": "\(limits.hard)"])
        }
        var server = VarlinkServer.Configuration()
        server.maxConnections = config.maxConnections
        server.maxConnectionsPerUID = config.connectionLimits.perUID
        server.ownerReservedConnections = config.connectionLimits.ownerReserved
        server.idleTimeout = .seconds(config.connectionLimits.idleTimeout)
        server.maxUnsentBytes = config.connectionLimits.maxUnsentBytes
        server.attach = Self.identify(with: callers, logger: logger)
        server.isOwner = { ($0 as? Caller)?.isOwner == true }
        server.ownerUID = callers.daemonUID
        // The default socket lies in it: the folder must be the user's own, not one another user made first.
        server.runtimeDirectory = DefaultPaths().runtimeDirectory
        return server
    }

    /// The attach hook: who each connecting process is. A process that is gone before it can be
    /// identified is logged within a budget, as a client can make any number of those.
    static func identify(with callers: CallerResolver, logger: Logger) -> @Sendable (VarlinkPeer?) async -> (any Sendable)? {
        let unidentified = LogBudget()
        return { peer in
            let caller = callers.resolve(peer)
            if case .unidentified(let reason) = caller {
                // The reason can quote /proc, which the client controls (its executable's path).
                unidentified.log(logger, .warning, "refusing a client photod cannot identify",
                                 metadata: ["reason": "\(SafeText.escaped(reason, maxBytes: 512))"])
            } else {
                logger.debug("client identified",
                             metadata: ["app": "\(SafeText.escaped(caller.appID, maxBytes: 512))", "owner": "\(caller.isOwner)"])
            }
            return caller
        }
    }
}
