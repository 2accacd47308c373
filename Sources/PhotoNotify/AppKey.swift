import PhotoAPI

/// One app's request as photod-notify keys it: the app's id, the user it runs as, and the
/// access level asked for (the owner answers the two levels apart), or the change or pick it
/// asked for (each by photod's id for it).
public struct AppKey: Hashable, Sendable, CustomStringConvertible {
    /// A request other than for access, by photod's id for it.
    public enum Ticket: Hashable, Sendable {
        /// A change to photos (`ChangeRequest`).
        case change(String)
        /// A pick (`PickRequest`).
        case pick(String)
    }

    public var id: String
    public var uid: Int
    public var level: AccessLevel
    /// The change or pick this key names; nil for a request for access.
    public var ticket: Ticket?

    /// The key of `id` for user `uid` at `level`, or of its change or pick `ticket`.
    public init(id: String, uid: Int, level: AccessLevel = .readWrite, ticket: Ticket? = nil) {
        self.id = id
        self.uid = uid
        self.level = level
        self.ticket = ticket
    }

    /// The key of a change an app asked for.
    public init(_ change: ChangeRequest) {
        self.init(id: change.app.id, uid: change.app.uid, ticket: .change(change.id))
    }

    /// The key of a pick an app asked for.
    public init(_ pick: PickRequest) {
        self.init(id: pick.app.id, uid: pick.app.uid, ticket: .pick(pick.id))
    }

    /// The change's id, for a key of a change.
    public var change: String? {
        if case .change(let id) = ticket { id } else { nil }
    }

    /// The pick's id, for a key of a pick.
    public var pick: String? {
        if case .pick(let id) = ticket { id } else { nil }
    }

    /// The key of an app record's request at `level`.
    public init(_ app: App, level: AccessLevel = .readWrite) {
        self.init(id: app.id, uid: app.uid, level: level)
    }

    /// The id and uid, for a log line.
    public var description: String { "\(id) (uid \(uid))" }
}
