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
