import PhotoAPI

/// One `io.photod.Authorization.Watch` event as the daemon keeps it: what happened and the app
/// as it is afterwards.
struct AuthorizationEvent: Sendable, Equatable, Codable {
    var kind: AuthorizationEventKind
    var app: AppAuthorization
    /// The level the event is about; `removed` is about both.
    var level: AccessLevel = .readWrite
}
