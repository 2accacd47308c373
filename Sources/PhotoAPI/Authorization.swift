/// What the statuses mean to photod; the enum itself is generated from the IDL.
extension AuthorizationStatus {
    /// Whether the owner may set this status with a decision; the others come from a
    /// reset (notDetermined) or from the policy (restricted).
    public var isDecision: Bool {
        switch self {
        case .authorized, .limited, .denied: true
        case .notDetermined, .restricted: false
        }
    }

    /// Whether the app sees any of the library.
    public var grantsAccess: Bool { self == .authorized || self == .limited }
}

extension AccessLevel {
    /// The level in words for the owner, as prompts, notifications and listings say it.
    public var words: String {
        switch self {
        case .readWrite: "see photos"
        case .addOnly: "add photos only"
        }
    }
}

extension AuthorizationEventReply {
    /// The IDL's `Event`, by the name clients have always used for it.
    public typealias Event = AppEvent
}

/// Parameters of `Remove`: an app and its uid (the names file makes them one type with `GetApp`'s).
public typealias RemoveParameters = AppParameters

/// Parameters of `GetApp`: an app and its uid.
public typealias GetAppParameters = AppParameters
