import PhotoAPI

/// One app's request as photod-notify keys it: the app's id, the user it runs as, and the
/// access level asked for (the owner answers the two levels apart), or the change it asked for.
public struct AppKey: Hashable, Sendable, CustomStringConvertible {
    public var id: String
    public var uid: Int
    public var level: AccessLevel
    /// The change request's id, for a change the app asked for (`ChangeRequest`); nil for access.
    public var change: String?

    /// The key of `id` for user `uid` at `level`, or of its change `change`.
    public init(id: String, uid: Int, level: AccessLevel = .readWrite, change: String? = nil) {
        self.id = id
        self.uid = uid
        self.level = level
        self.change = change
    }

    /// The key of a change an app asked for.
    public init(_ change: ChangeRequest) {
        self.init(id: change.app.id, uid: change.app.uid, change: change.id)
    }

    /// The key of an app record's request at `level`.
    public init(_ app: App, level: AccessLevel = .readWrite) {
        self.init(id: app.id, uid: app.uid, level: level)
    }

    /// The id and uid, for a log line.
    public var description: String { "\(id) (uid \(uid))" }
}
