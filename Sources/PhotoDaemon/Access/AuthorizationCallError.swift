/// Why an authorization call was refused.
enum AuthorizationCallError: Error, Sendable, Equatable {
    case unknownApp(String)
    case ambiguous(String, candidates: [AppKey])
    case refused(AuthorizationFailure)
    /// A new app found every record slot taken.
    case tooManyApps(limit: Int)
    /// The record with this parameter would not fit its budget.
    case tooLarge(parameter: String)
    /// Allowing the app allows more than one program; the owner must confirm the warning.
    case confirmationRequired(app: String, warning: String)
}
