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
