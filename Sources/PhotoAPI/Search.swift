/// Parameters of `io.photod.Library.Search`.
public struct SearchParameters: Codable, Sendable, Equatable {
    /// Words to find in the description, file name, make or model, ignoring case and accents.
    public var text: String
    /// Only this group's assets, or all when nil.
    public var group: String?
    public var limit: Int?
    /// The opaque cursor from the previous page.
    public var cursor: String?
    /// How `group` is matched, as in `ListAssetsParameters.fallback`.
    public var fallback: Bool?

    /// Creates the parameters.
    public init(text: String, group: String? = nil, limit: Int? = nil, cursor: String? = nil, fallback: Bool? = nil) {
        self.text = text
        self.group = group
        self.limit = limit
        self.cursor = cursor
        self.fallback = fallback
    }
}

/// Reply of `io.photod.Library.Search`.
public struct SearchReply: Codable, Sendable, Equatable {
    /// Newest first (taken, else modified).
    public var assets: [Asset]
    /// Pass back to get the next page; nil on the last page.
    public var cursor: String?
    /// True when the page stopped at the row budget before it was full; `cursor` goes on.
    public var stopped: Bool?

    /// Creates the reply.
    public init(assets: [Asset], cursor: String?, stopped: Bool? = nil) {
        self.assets = assets
        self.cursor = cursor
        self.stopped = stopped
    }
}
