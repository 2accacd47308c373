import PhotoAPI

/// An app as photod keys its record: its id and the user it runs as.
public struct AppKey: Hashable, Sendable, CustomStringConvertible {
    public var id: String
    public var uid: Int

    /// The key of `id` for user `uid`.
    public init(id: String, uid: Int) {
        self.id = id
        self.uid = uid
    }

    /// The key of an app record.
    public init(_ app: App) {
        self.init(id: app.id, uid: app.uid)
    }

    /// The id and uid, for a log line.
    public var description: String { "\(id) (uid \(uid))" }
}

/// What the notification server supports that the notifier cares about (`GetCapabilities`).
public struct ServerCapabilities: Equatable, Sendable {
    /// The server shows action buttons and reports `ActionInvoked`.
    public var actions: Bool
    /// The server reads the body as markup, so text from an app must be entity-escaped.
    public var bodyMarkup: Bool

    /// Capabilities given directly.
    public init(actions: Bool, bodyMarkup: Bool) {
        self.actions = actions
        self.bodyMarkup = bodyMarkup
    }

    /// Capabilities from the list `GetCapabilities` returns.
    public init(_ list: [String]) {
        self.init(actions: list.contains("actions"), bodyMarkup: list.contains("body-markup"))
    }
}
