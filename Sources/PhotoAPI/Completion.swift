/// What `io.photod.Library.Complete` completes.
public enum CandidateKind: String, Codable, Sendable, CaseIterable {
    /// Group names, as `ListGroups` gives them.
    case group
    /// Asset ids.
    case asset
    /// The ids of the apps photod keeps a record of (the owner's alone).
    case app
    /// The configured roots (the owner's alone).
    case root
}

/// Parameters of `io.photod.Library.Complete`.
public struct CompleteParameters: Codable, Sendable, Equatable {
    public var kind: CandidateKind
    /// What the word starts with so far.
    public var prefix: String
    /// The most candidates wanted (default 100).
    public var limit: Int?

    /// Creates the parameters.
    public init(kind: CandidateKind, prefix: String, limit: Int? = nil) {
        self.kind = kind
        self.prefix = prefix
        self.limit = limit
    }
}

/// Reply of `io.photod.Library.Complete`.
public struct CompleteReply: Codable, Sendable, Equatable {
    /// The names starting with the prefix, sorted by their UTF-8 bytes.
    public var candidates: [String]
    /// For groups: the fallback group's name, when it is visible and fits the prefix (it is
    /// named by a flag elsewhere, so it is not among `candidates`).
    public var fallback: String?

    /// Creates the reply.
    public init(candidates: [String], fallback: String? = nil) {
        self.candidates = candidates
        self.fallback = fallback
    }
}

/// Parameters of `io.photod.Library.RootNotFound`.
public struct RootNotFoundError: Codable, Sendable, Equatable {
    /// The root asked for.
    public var root: String
    /// The library's roots, as configured.
    public var roots: [String]

    /// Creates the error parameters.
    public init(root: String, roots: [String]) {
        self.root = root
        self.roots = roots
    }
}
