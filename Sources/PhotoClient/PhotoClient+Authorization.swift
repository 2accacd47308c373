import PhotoAPI
import VarlinkCore

extension PhotoClient {
    /// This client's own app record as photod identified it.
    public func authorizationStatus() async throws(PhotoClientError) -> App {
        try await call(AuthorizationMethods.status, AppStatusParameters()).app
    }

    /// What this client may do at `level` now, with its record (`status` is absent from older daemons).
    public func authorizationStatus(level: AccessLevel) async throws(PhotoClientError) -> AppStatusReply {
        try await call(AuthorizationMethods.status, AppStatusParameters(level: level))
    }

    /// Asks the owner for access at `level` (nil: readWrite). Yields `pending` at once when the
    /// owner has to decide, then the decision; an app already decided gets its status at once.
    public func requestAuthorization(reason: String, label: String? = nil, level: AccessLevel? = nil)
        -> AsyncThrowingStream<RequestAuthorizationReply, Error> {
        stream(AuthorizationMethods.requestAuthorization,
               RequestAuthorizationParameters(reason: reason, label: label, level: level)) { $0 }
    }

    /// Owner only: every app photod knows.
    public func listApps() async throws(PhotoClientError) -> [App] {
        try await call(AuthorizationMethods.listApps, NoParameters()).apps
    }

    /// Owner only: one app's record, named as for `decide`.
    public func app(_ app: String, uid: Int? = nil) async throws(PhotoClientError) -> App {
        try await call(AuthorizationMethods.getApp, GetAppParameters(app: app, uid: uid)).app
    }

    /// Owner only: answers a request or changes a decision. `uid` picks the user when apps
    /// of several users share the id; `fallback` adds the fallback group to a limited
    /// selection; `confirmed` says the owner agreed to the app's warning.
    public func decide(app: String, uid: Int? = nil, status: AuthorizationStatus, assets: [String]? = nil,
                       groups: [String]? = nil, fallback: Bool? = nil, confirmed: Bool? = nil,
                       level: AccessLevel? = nil) async throws(PhotoClientError) -> App {
        try await call(AuthorizationMethods.decide, DecideParameters(
            app: app, uid: uid, status: status, assets: assets, groups: groups, confirmed: confirmed,
            fallback: fallback, level: level)).app
    }

    /// Owner only: sends an app back to notDetermined at `level` (nil: readWrite) so that it may ask again.
    public func reset(app: String, uid: Int? = nil, level: AccessLevel? = nil) async throws(PhotoClientError) -> App {
        try await call(AuthorizationMethods.reset, ResetParameters(app: app, uid: uid, level: level)).app
    }

    /// Owner only: forgets an app entirely (record, decision, selection); returns it as it was.
    public func remove(app: String, uid: Int? = nil) async throws(PhotoClientError) -> App {
        try await call(AuthorizationMethods.remove, RemoveParameters(app: app, uid: uid)).app
    }

    /// Owner only: the changes apps asked for that wait for an answer, oldest first.
    public func listChanges() async throws(PhotoClientError) -> [ChangeRequest] {
        try await call(AuthorizationMethods.listChanges, NoParameters()).changes
    }

    /// Owner only: allows or denies the waiting change `id`.
    public func answerChange(_ id: String, allow: Bool) async throws(PhotoClientError) -> AnswerChangeReply {
        try await call(AuthorizationMethods.answerChange, AnswerChangeParameters(id: id, allow: allow))
    }

    /// Owner only: the apps waiting for the owner to pick photos for them, oldest first.
    public func listPicks() async throws(PhotoClientError) -> [PickRequest] {
        try await call(AuthorizationMethods.listPicks, NoParameters()).picks
    }

    /// Owner only: answers the waiting pick `id` with the photos `ids`, in order, or cancels it.
    public func answerPick(_ id: String, ids: [String]? = nil, cancel: Bool = false)
        async throws(PhotoClientError) -> AnswerPickReply {
        try await call(AuthorizationMethods.answerPick, AnswerPickParameters(id: id, ids: ids, cancel: cancel ? true : nil))
    }

    /// Owner only: the photos picked for an app, in the order picked; the app named as for `decide`.
    public func picked(app: String, uid: Int? = nil) async throws(PhotoClientError) -> [String] {
        try await call(AuthorizationMethods.getPicked, AppParameters(app: app, uid: uid)).ids
    }

    /// Owner only: takes picked photos back from an app (`ids` nil: all of them).
    public func unpick(app: String, uid: Int? = nil, ids: [String]? = nil) async throws(PhotoClientError) -> App {
        try await call(AuthorizationMethods.unpick, UnpickParameters(app: app, uid: uid, ids: ids)).app
    }

    /// Authorization events as they happen: all of them for the owner, an app's own otherwise.
    public func watchAuthorization() -> AsyncThrowingStream<AuthorizationEventReply.Event, Error> {
        stream(AuthorizationMethods.watch, NoParameters()) { $0.event }
    }
}
