import PhotoAPI
import Varlink

extension PhotoClient {
    /// This client's own app record as photod identified it.
    public func authorizationStatus() async throws(PhotoClientError) -> App {
        try await call(AuthorizationInterface.Method.status, NoParameters(), AppReply.self).app
    }

    /// Asks the owner for access. Yields `pending` at once when the owner has to decide, then
    /// the decision; an app already decided gets its status at once.
    public func requestAuthorization(reason: String, label: String? = nil)
        -> AsyncThrowingStream<RequestAuthorizationReply, Error> {
        stream(AuthorizationInterface.Method.requestAuthorization,
               RequestAuthorizationParameters(reason: reason, label: label), RequestAuthorizationReply.self) { $0 }
    }

    /// Owner only: every app photod knows.
    public func listApps() async throws(PhotoClientError) -> [App] {
        try await call(AuthorizationInterface.Method.listApps, NoParameters(), ListAppsReply.self).apps
    }

    /// Owner only: answers a request or changes a decision. `uid` picks the user when apps
    /// of several users share the id.
    public func decide(app: String, uid: Int? = nil, status: AuthorizationStatus, assets: [String]? = nil,
                       groups: [String]? = nil) async throws(PhotoClientError) -> App {
        try await call(AuthorizationInterface.Method.decide,
                       DecideParameters(app: app, uid: uid, status: status, assets: assets, groups: groups),
                       AppReply.self).app
    }

    /// Owner only: sends an app back to notDetermined so that it may ask again.
    public func reset(app: String, uid: Int? = nil) async throws(PhotoClientError) -> App {
        try await call(AuthorizationInterface.Method.reset, ResetParameters(app: app, uid: uid), AppReply.self).app
    }

    /// Owner only: forgets an app entirely (record, decision, selection); returns it as it was.
    public func remove(app: String, uid: Int? = nil) async throws(PhotoClientError) -> App {
        try await call(AuthorizationInterface.Method.remove, RemoveParameters(app: app, uid: uid), AppReply.self).app
    }

    /// Authorization events as they happen: all of them for the owner, an app's own otherwise.
    public func watchAuthorization() -> AsyncThrowingStream<AuthorizationEventReply.Event, Error> {
        stream(AuthorizationInterface.Method.watch, NoParameters(), AuthorizationEventReply.self) { $0.event }
    }
}
