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

extension AuthorizationEventReply {
    /// The IDL's `Event`, by the name clients have always used for it.
    public typealias Event = AppEvent
}

/// Parameters of `Remove`: the same as `Reset`'s (the names file makes them one type).
public typealias RemoveParameters = ResetParameters

/// Parameters of `GetApp`: the same as `Reset`'s.
public typealias GetAppParameters = ResetParameters
