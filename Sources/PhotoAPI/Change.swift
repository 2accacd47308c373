/// An asset that kept its id while its path changed.
public struct Move: Codable, Sendable, Equatable {
    public var id: String
    public var from: String
    public var to: String

    /// Creates a move.
    public init(id: String, from: String, to: String) {
        self.id = id
        self.from = from
        self.to = to
    }
}

/// One committed change to the library; tokens only grow.
public struct Change: Codable, Sendable, Equatable {
    public var token: Int
    public var inserted: [String]
    public var removed: [String]
    /// Metadata or content changed (same id).
    public var updated: [String]
    public var moved: [Move]
    /// Groups created or whose count changed.
    public var groupsChanged: [String]
    /// Groups emptied.
    public var groupsRemoved: [String]
    /// True when the first name of `groupsChanged` is the fallback group's (a description can
    /// read like its name and be a group of its own); nil otherwise.
    public var fallbackChanged: Bool?
    /// The same for `groupsRemoved`.
    public var fallbackRemoved: Bool?
    /// The subscriber must re-fetch everything.
    public var resync: Bool

    /// Creates a change.
    public init(
        token: Int, inserted: [String] = [], removed: [String] = [], updated: [String] = [], moved: [Move] = [],
        groupsChanged: [String] = [], groupsRemoved: [String] = [], fallbackChanged: Bool? = nil,
        fallbackRemoved: Bool? = nil, resync: Bool = false
    ) {
        self.token = token
        self.inserted = inserted
        self.removed = removed
        self.updated = updated
        self.moved = moved
        self.groupsChanged = groupsChanged
        self.groupsRemoved = groupsRemoved
        self.fallbackChanged = fallbackChanged
        self.fallbackRemoved = fallbackRemoved
        self.resync = resync
    }
}

/// Parameters of `io.photod.Library.Subscribe`.
public struct SubscribeParameters: Codable, Sendable, Equatable {
    /// Replay the changes after this token first.
    public var since: Int?

    /// Creates the parameters.
    public init(since: Int? = nil) { self.since = since }
}

/// One reply of `io.photod.Library.Subscribe`.
public struct SubscribeReply: Codable, Sendable, Equatable {
    public var change: Change

    /// Creates the reply.
    public init(change: Change) { self.change = change }
}
