/// What one notification shows: everything `Notify` sends except the id it replaces.
public struct NotificationContent: Equatable, Sendable {
    /// One button: the key `ActionInvoked` reports and the label the server shows.
    public struct Action: Equatable, Sendable {
        public var key: String
        public var label: String

        /// An action.
        public init(_ key: String, _ label: String) {
            self.key = key
            self.label = label
        }
    }

    /// One line of plain text, never from an app.
    public var summary: String
    /// The text, already escaped for the server (see `NotificationText`).
    public var body: String
    public var actions: [Action]
    /// Milliseconds: 0 stays until closed (a request waits until decided), -1 the server's default.
    public var expireTimeout: Int32

    /// A notification's content.
    public init(summary: String, body: String, actions: [Action] = [], expireTimeout: Int32 = 0) {
        self.summary = summary
        self.body = body
        self.actions = actions
        self.expireTimeout = expireTimeout
    }

    /// The actions as `Notify` wants them: key, label, key, label.
    public var flatActions: [String] { actions.flatMap { [$0.key, $0.label] } }
}

/// The action keys the notifier offers and understands.
public enum ActionKey {
    public static let allow = "allow"
    /// The second Allow, after the owner was shown what allowing an interpreter reaches.
    public static let allowConfirmed = "allow-confirmed"
    public static let deny = "deny"
    public static let choose = "choose"
    /// A pick's Cancel: the app gets no photos.
    public static let cancel = "cancel"
}
