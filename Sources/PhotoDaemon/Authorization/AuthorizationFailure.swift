/// Why the owner's Decide or Reset was refused.
enum AuthorizationFailure: Error, Sendable, Equatable {
    /// The policy restricts the app; only a config change lifts it.
    case restricted(app: String)
    /// The decision cannot be recorded as given.
    case invalidDecision(reason: String)
}
