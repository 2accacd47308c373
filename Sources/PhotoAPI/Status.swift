/// How a library root is being kept up to date.
public enum RootState: String, Codable, Sendable {
    case watching, scanning, polling, missing
    /// The file system the root's photos are on is away (an unmounted drive, or an empty
    /// mount point in its place): its photos are kept, and it is not reconciled until it is back.
    case offline
}

/// One configured library folder.
public struct Root: Codable, Sendable, Equatable {
    public var path: String
    public var state: RootState
    public var assets: Int

    /// Creates a root value.
    public init(path: String, state: RootState, assets: Int) {
        self.path = path
        self.state = state
        self.assets = assets
    }
}

/// The daemon's overall state.
public enum DaemonState: String, Codable, Sendable {
    case starting, scanning, ready, degraded
}

/// Progress of a running reconcile.
public struct ScanProgress: Codable, Sendable, Equatable {
    /// Image files the walk has found so far.
    public var found: Int
    /// New or changed files whose metadata has been read so far.
    public var indexed: Int
    /// Files that need reading; nil until the walk has finished.
    public var total: Int?

    /// Creates a progress value.
    public init(found: Int, indexed: Int, total: Int?) {
        self.found = found
        self.indexed = indexed
        self.total = total
    }
}

/// Reply of `io.photod.Library.Status`.
public struct StatusReply: Codable, Sendable, Equatable {
    public var version: String
    public var state: DaemonState
    public var roots: [Root]
    public var assets: Int
    public var groups: Int
    public var token: Int
    public var watches: Int
    public var problems: [String]
    public var progress: ScanProgress?
    /// inotify queue overflows since start (each one triggered a reconcile).
    public var overflows: Int?
    /// The image workers and the thumbnail cache; nil for a limited app.
    public var thumbnails: ThumbnailStatus?

    /// Creates a status reply.
    public init(
        version: String, state: DaemonState, roots: [Root], assets: Int, groups: Int, token: Int,
        watches: Int, problems: [String], progress: ScanProgress?, overflows: Int? = nil,
        thumbnails: ThumbnailStatus? = nil
    ) {
        self.version = version
        self.state = state
        self.roots = roots
        self.assets = assets
        self.groups = groups
        self.token = token
        self.watches = watches
        self.problems = problems
        self.progress = progress
        self.overflows = overflows
        self.thumbnails = thumbnails
    }
}
