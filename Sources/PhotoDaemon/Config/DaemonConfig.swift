import FileSystem
import Logging
import Metadata
import PhotoAPI

/// Everything photod is configured with, after defaults, the config file and flags are merged.
public struct DaemonConfig: Sendable, Equatable {
    /// Folders to index.
    public var roots: [String]
    /// Files and folders under the roots that are not part of the library (`[library] ignore`).
    public var ignore = IgnoreRules.defaults
    /// The index database file.
    public var database: String
    /// The socket to bind when systemd passes none.
    public var socket: String
    public var logLevel: Logger.Level
    /// Most client connections served at once.
    public var maxConnections: Int
    /// How hostile or stuck clients are held to their share (see `ConnectionLimits`).
    public var connectionLimits = ConnectionLimits()
    /// Seconds between periodic reconciles; 0 turns them off.
    public var rescanInterval: Int
    /// Seconds between looks at folders inotify cannot cover and at missing roots.
    public var pollInterval: Int
    /// Seconds between polls of roots and mounts on file systems inotify cannot see into.
    public var remotePollInterval = 30
    /// Seconds between such polls for some roots (`[remote_poll_intervals]`), keyed by the root
    /// as in `roots`; a root not named here, and the mounts inside it, take `remotePollInterval`.
    public var remotePollIntervals: [String: Int] = [:]
    /// inotify watches photod may use; 0 means the kernel's limit less a margin for other programs.
    public var maxWatches: Int
    /// Changes kept in the log for `Subscribe(since:)`.
    public var changeRetention: Int
    /// Bytes of change payload the log keeps at most; with `changeRetention`, whichever comes first.
    public var changeRetentionBytes = 8 << 20
    /// Largest the index file may grow, in bytes; nil: as far as the disk allows. Past it, writes
    /// fail as on a full disk: photod serves what the index has, degraded, until there is room.
    public var indexSizeLimit: Int?
    /// Changes a subscriber may lag behind before it gets a resync and is dropped.
    public var subscriberQueue: Int
    public var grouping: GroupingRules
    /// Where a description is looked for, in order; the first usable one names the group.
    public var descriptionSources: [Metadata.DescriptionSource]
    /// App ids or executables (patterns with `*`) that are the owner, besides photoctl.
    public var trusted: [String]
    /// Restricted apps and how long a request waits for the owner.
    public var authorization: AuthorizationPolicy
    /// The image workers and the thumbnail cache.
    public var thumbnails = ThumbnailConfig()
    /// Where imported photos go, and how large one may be.
    public var importing = ImportConfig()

    /// The built-in defaults for `paths` (the values `config/photod.toml` documents).
    public static func defaults(paths: DefaultPaths = DefaultPaths()) -> DaemonConfig {
        DaemonConfig(
            roots: [paths.pictures],
            database: paths.database,
            socket: paths.daemonSocket,
            logLevel: .info,
            maxConnections: 64,
            rescanInterval: 3600,
            pollInterval: 30,
            maxWatches: 0,
            changeRetention: 10_000,
            subscriberQueue: 1024,
            grouping: GroupingRules(),
            descriptionSources: DescriptionSources.defaultOrder,
            trusted: [],
            authorization: AuthorizationPolicy())
    }
}

/// How photod makes images: its sandboxed workers and the freedesktop.org thumbnail cache.
public struct ThumbnailConfig: Sendable, Equatable {
    /// Workers running at once; 0: one per core (at most 4).
    public var workers = 0
    /// Seconds one image may take in a worker before the worker is killed and the request fails.
    public var timeout = 10
    /// Fill the cache ahead of time while the machine is idle, at the lowest CPU and I/O priority.
    public var prefill = false
    /// The cache folder; nil: `$XDG_CACHE_HOME/thumbnails` as the standard says.
    public var cacheFolder: String?
    /// Bytes photod's own thumbnails may take in the shared cache; the janitor removes the oldest past it.
    public var cacheMaxBytes: Int64 = 512 << 20
    /// The worker executable; nil: `photod-thumbnailer` beside photod, else in /usr/libexec/photod.
    public var worker: String?

    /// The defaults `config/photod.toml` documents.
    public init() {}

    /// Workers to run at most on a machine with `cores` cores.
    public func maxWorkers(cores: Int) -> Int { workers > 0 ? workers : min(max(cores, 1), 4) }
}

/// The per-client bounds on the varlink server, besides `max_connections`.
public struct ConnectionLimits: Sendable, Equatable {
    /// Connections one uid other than the owner may hold at once.
    public var perUID = 16
    /// Of `max_connections`, the slots only the owner (photoctl, trusted programs) may take.
    public var ownerReserved = 4
    /// Seconds a connection may stay without a call in flight before it is closed.
    public var idleTimeout = 60
    /// Bytes of replies a client may leave unread before its connection is closed.
    public var maxUnsentBytes = 2 << 20

    /// The defaults `config/photod.toml` documents.
    public init() {}
}

/// Command-line values that override the config file.
public struct DaemonOverrides: Sendable {
    public var configFile: String?
    public var roots: [String] = []
    public var database: String?
    public var socket: String?
    public var logLevel: Logger.Level?

    /// Creates overrides.
    public init(configFile: String? = nil, roots: [String] = [], database: String? = nil, socket: String? = nil,
                logLevel: Logger.Level? = nil) {
        self.configFile = configFile
        self.roots = roots
        self.database = database
        self.socket = socket
        self.logLevel = logLevel
    }
}
