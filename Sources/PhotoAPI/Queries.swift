/// Reply of `io.photod.Library.ListGroups`.
public struct ListGroupsReply: Codable, Sendable, Equatable {
    public var groups: [Group]

    /// Creates the reply.
    public init(groups: [Group]) { self.groups = groups }
}

/// The order `ListAssets` returns assets in.
public enum AssetSort: String, Codable, Sendable, CaseIterable {
    case taken, path, modified
}

/// Parameters of `io.photod.Library.ListAssets`.
public struct ListAssetsParameters: Codable, Sendable, Equatable {
    /// One group's assets, or all assets when nil.
    public var group: String?
    public var sort: AssetSort?
    public var limit: Int?
    /// The opaque cursor from the previous page.
    public var cursor: String?
    /// How `group` is matched: true, the fallback group (`group` may be left out, or must be
    /// its name); false, only the group of that description; nil, that group when there is
    /// one, else the fallback group when `group` is its name.
    public var fallback: Bool?
    /// Only assets taken (else modified) from the start of this date or date-time (`DateBound`).
    public var since: String?
    /// Only assets taken (else modified) until the end of this date or date-time (`DateBound`).
    public var until: String?
    /// The order reversed: newest first when sorted by taken or modified time.
    public var reverse: Bool?

    /// Creates the parameters.
    public init(group: String? = nil, sort: AssetSort? = nil, limit: Int? = nil, cursor: String? = nil,
                fallback: Bool? = nil, since: String? = nil, until: String? = nil, reverse: Bool? = nil) {
        self.group = group
        self.sort = sort
        self.limit = limit
        self.cursor = cursor
        self.fallback = fallback
        self.since = since
        self.until = until
        self.reverse = reverse
    }
}

/// Reply of `io.photod.Library.ListAssets`.
public struct ListAssetsReply: Codable, Sendable, Equatable {
    public var assets: [Asset]
    /// Pass back to get the next page; nil on the last page.
    public var cursor: String?

    /// Creates the reply.
    public init(assets: [Asset], cursor: String?) {
        self.assets = assets
        self.cursor = cursor
    }
}

/// Parameters of `io.photod.Library.GetAssets`.
public struct GetAssetsParameters: Codable, Sendable, Equatable {
    public var ids: [String]
    /// Absolute paths, exactly as indexed (canonical: no symlinks, `.` or `..`).
    public var paths: [String]?
    /// Absolute paths as base64 of their exact bytes, for paths that are not valid UTF-8.
    public var pathBytes: [String]?

    /// Creates the parameters.
    public init(ids: [String], paths: [String]? = nil, pathBytes: [String]? = nil) {
        self.ids = ids
        self.paths = paths
        self.pathBytes = pathBytes
    }
}

/// Reply of `io.photod.Library.GetAssets`.
public struct GetAssetsReply: Codable, Sendable, Equatable {
    public var assets: [Asset]
    /// Requested ids, then paths, that are not in the library (or not visible to the caller).
    public var missing: [String]
    /// Requested `pathBytes` entries not in the library, as given; nil when none were asked.
    public var missingPathBytes: [String]?

    /// Creates the reply.
    public init(assets: [Asset], missing: [String], missingPathBytes: [String]? = nil) {
        self.assets = assets
        self.missing = missing
        self.missingPathBytes = missingPathBytes
    }
}

/// Parameters of `io.photod.Library.Rescan`.
public struct RescanParameters: Codable, Sendable, Equatable {
    /// One configured root, or every root when nil.
    public var root: String?
    /// True (with `root`): the owner says the photos of the root's drives that are away are
    /// gone; the root is reconciled with what its folder holds now. Nil otherwise.
    public var forget: Bool?

    /// Creates the parameters.
    public init(root: String? = nil, forget: Bool? = nil) {
        self.root = root
        self.forget = forget
    }
}

/// Reply of `io.photod.Library.Rescan`.
public struct RescanReply: Codable, Sendable, Equatable {
    /// Image files looked at.
    public var scanned: Int
    /// Assets inserted, updated, moved or removed.
    public var changed: Int

    /// Creates the reply.
    public init(scanned: Int, changed: Int) {
        self.scanned = scanned
        self.changed = changed
    }
}
