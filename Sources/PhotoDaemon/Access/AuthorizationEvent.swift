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
    /// For `changeEnded` and `pickEnded`: how it ended.
    var answer: ChangeAnswer?
    /// For `pickRequested` and `pickEnded`: the pick the app asked for.
    var pick: PendingPick?
    /// For `pickEnded` allowed: how many photos the owner chose.
    var picked: Int?

    /// The event as `Watch` sends it.
    var wire: AppEvent {
        let app = app.wire
        return AppEvent(kind: kind, app: app, level: level, change: change.map { $0.wire(app: app) }, answer: answer,
                        pick: pick.map { $0.wire(app: app) }, picked: picked)
    }
}
