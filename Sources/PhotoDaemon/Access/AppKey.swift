/// What an authorization record is kept under: the user and the app id. In a system service,
/// the same program run by two users is two apps, and one user's grant never reaches another.
struct AppKey: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The uid of the app's processes (SO_PEERCRED).
    let uid: UInt32
    /// The app id the resolver derived.
    let id: String

    /// The key of an identified app.
    init(_ identity: AppIdentity) {
        self.init(uid: identity.uid, id: identity.id)
    }

    /// A key from its parts.
    init(uid: UInt32, id: String) {
        self.uid = uid
        self.id = id
    }

    /// One string per key, for maps keyed by text (change subscriptions): the uid is digits and
    /// ends at the first colon, so no two keys share it.
    var text: String { "\(uid):\(id)" }

    /// The id with its user, as an owner reads it among candidates.
    var description: String { "\(id) (uid \(uid))" }

    /// By user, then by id.
    static func < (lhs: AppKey, rhs: AppKey) -> Bool {
        (lhs.uid, lhs.id) < (rhs.uid, rhs.id)
    }
}
