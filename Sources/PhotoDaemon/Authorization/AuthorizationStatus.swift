/// What an app may do with the library, PhotoKit's five authorization statuses.
enum AuthorizationStatus: String, Sendable, Codable, CaseIterable {
    case notDetermined, restricted, denied, authorized, limited

    /// Whether the owner may set this status with a decision; the others come from a
    /// reset (notDetermined) or from the policy (restricted).
    var isDecision: Bool {
        switch self {
        case .authorized, .limited, .denied: true
        case .notDetermined, .restricted: false
        }
    }
}
