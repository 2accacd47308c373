import PhotoAPI

/// One app's request as photod-notify keys it: the app's id, the user it runs as, and the
/// access level asked for (the owner answers the two levels apart).
public struct AppKey: Hashable, Sendable, CustomStringConvertible {
    public var id: String
    public var uid: Int
    public var level: AccessLevel

    /// The key of `id` for user `uid` at `level`.
    public init(id: String, uid: Int, level: AccessLevel = .readWrite) {
        self.id = id
        self.uid = uid
        self.level = level
    }

    /// The key of an app record's request at `level`.
    public init(_ app: App, level: AccessLevel = .readWrite) {
        self.init(id: app.id, uid: app.uid, level: level)
    }

    /// The id and uid, for a log line.
    public var description: String { "\(id) (uid \(uid))" }
}
