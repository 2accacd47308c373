import PhotoAPI

/// One `io.photod.Authorization.Watch` event as the daemon keeps it: what happened and the app
/// as it is afterwards.
struct AuthorizationEvent: Sendable, Equatable, Codable {
    var kind: AuthorizationEventKind
    var app: AppAuthorization
    /// The level the event is about; `removed` is about both.
    var level: AccessLevel = .readWrite
    /// For `changeRequested` and `changeEnded`: the change the app asked for.
    var change: PendingChange?
    /// For `changeEnded`: how it ended.
    var answer: ChangeAnswer?

    /// The event as `Watch` sends it.
    var wire: AppEvent {
        AppEvent(kind: kind, app: app.wire, level: level, change: change.map { $0.wire(app: app.wire) }, answer: answer)
    }
}
