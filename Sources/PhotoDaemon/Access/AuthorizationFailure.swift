/// Why a transition was refused: the owner's Decide or Reset, or an app's request.
enum AuthorizationFailure: Error, Sendable, Equatable {
    /// The policy restricts the app; only a config change lifts it.
    case restricted(app: String)
    /// The decision cannot be recorded as given.
    case invalidDecision(reason: String)
    /// The app started more requests than its `RequestBucket` allows; it may ask again in
    /// `retryAfter` seconds.
    case tooManyRequests(app: String, retryAfter: Int)
}
