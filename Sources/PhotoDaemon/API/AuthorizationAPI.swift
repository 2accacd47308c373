#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import PhotoAPI
import SafeText
import Varlink

/// `io.photod.Authorization`: apps ask and learn their status; the owner lists, decides, resets
/// and watches.
struct AuthorizationAPI: Sendable {
    let authorizer: Authorizer
    /// The changes apps asked for that wait for the owner.
    let changes: ChangeRequests
    /// The apps waiting for the owner to pick photos for them.
    let picks: PickRequests
    /// Checks that a limited selection names groups and assets the library has.
    let catalog: SelectionCatalog
    let logger: Logger

    /// The interface's methods; the table refuses the owner-only ones to anyone else.
    var routes: RouteTable<Void> {
        var table = RouteTable<Void>(interface: AuthorizationInterface.name,
                                     description: InterfaceText.authorization) { _, _ in }
        table.on(AuthorizationMethods.status) { request in
            let app = try await ownApp(request.caller)
            return AppStatusReply(app: app.wire, status: app.effectiveStatus(at: request.parameters.level ?? .readWrite))
        }
        table.stream(AuthorizationMethods.requestAuthorization) {
            try await request($0.parameters, call: $0.call, caller: $0.caller, replier: $0.replier)
        }
        table.stream(AuthorizationMethods.watch) { try await watch($0.call, caller: $0.caller, replier: $0.replier) }
        table.on(AuthorizationMethods.listApps) { _ in ListAppsReply(apps: await authorizer.allRecords().map(\.wire)) }
        table.on(AuthorizationMethods.getApp) { request in
            let uid = try Self.checkApp(request.parameters.app, uid: request.parameters.uid)
            return try await Self.answering { AppReply(app: try await authorizer.app(request.parameters.app, uid: uid).wire) }
        }
        table.on(AuthorizationMethods.decide) { try await decide($0.parameters, by: $0.caller.appID) }
        table.on(AuthorizationMethods.reset) { request in
            let uid = try Self.checkApp(request.parameters.app, uid: request.parameters.uid)
            return try await Self.answering {
                AppReply(app: try await authorizer.reset(request.parameters.app, uid: uid,
                                                         level: request.parameters.level ?? .readWrite,
                                                         by: request.caller.appID).wire)
            }
        }
        table.on(AuthorizationMethods.listChanges) { _ in
            ListChangesReply(changes: await changes.list().map { $0.change.wire(app: $0.app.wire) })
        }
        table.on(AuthorizationMethods.answerChange) { request in
            do throws(ChangeRequestError) {
                let ended = try await changes.answer(request.parameters.id, allow: request.parameters.allow,
                                                     by: request.caller.appID)
                return AnswerChangeReply(change: ended.change.wire(app: ended.app.wire), answer: ended.answer)
            } catch {
                throw AppDescriptionCall.varlinkError(error)
            }
        }
        table.on(AuthorizationMethods.remove) { request in
            let uid = try Self.checkApp(request.parameters.app, uid: request.parameters.uid)
            return try await Self.answering { AppReply(app: try await authorizer.remove(request.parameters.app, uid: uid).wire) }
        }
        addPickRoutes(to: &table)
        return table
    }

    /// The caller's own record; the owner is always authorized.
    private func ownApp(_ caller: Caller) async throws -> AppAuthorization {
        switch caller {
        case .owner(let identity):
            return AppAuthorization(app: identity.id, uid: identity.uid, status: .authorized)
        case .app(let identity):
            return await authorizer.record(for: identity)
        case .unidentified(let reason):
            throw AccessGate.unidentified(reason: reason)
        }
    }

    private func request(_ parameters: RequestAuthorizationParameters, call: VarlinkCall, caller: Caller,
                         replier: VarlinkReplier) async throws {
        let identity: AppIdentity
        switch caller {
        case .owner:
            // The owner already sees everything; there is nobody to ask.
            if let needs = try NeedsRequest.needs(of: parameters) {
                let all = Dictionary(uniqueKeysWithValues: needs.map { ($0.level, AuthorizationStatus.authorized) })
                return try await replier.reply(NeedsRequest.reply(needs, all, pending: false))
            }
            try await replier.reply(RequestAuthorizationReply(status: .authorized, pending: false))
            return
        case .unidentified(let reason):
            throw AccessGate.unidentified(reason: reason)
        case .app(let app):
            identity = app
        }
        if let needs = try NeedsRequest.needs(of: parameters) {
            return try await NeedsRequest(authorizer: authorizer).run(needs, label: parameters.label, identity: identity,
                                                                      call: call, replier: replier)
        }
        guard let reason = parameters.reason else { throw VarlinkError.invalidParameter("reason") }
        let waiter: UInt64
        let answers: AsyncStream<RequestAuthorizationReply>
        do {
            (waiter, answers) = try await authorizer.request(identity, reason: reason, label: parameters.label,
                                                             level: parameters.level ?? .readWrite)
        } catch {
            throw Self.varlinkError(error)
        }
        for await answer in answers {
            if answer.pending {
                if call.more { try await replier.reply(answer, continues: true) }
                continue
            }
            try await replier.reply(answer)
            return
        }
        // The stream ended without a final answer: the caller hung up (the task was cancelled).
        await authorizer.cancel(app: AppKey(identity), waiter: waiter)
    }

    private func watch(_ call: VarlinkCall, caller: Caller, replier: VarlinkReplier) async throws {
        guard call.more else { throw VarlinkError.expectedMore() }
        let app: AppKey?
        switch caller {
        case .owner: app = nil
        case .app(let identity): app = AppKey(identity)
        case .unidentified(let reason):
            throw AccessGate.unidentified(reason: reason)
        }
        let (id, events) = await authorizer.watch(app: app)
        for await event in events {
            let reply = AuthorizationEventReply(event: event.wire)
            do {
                try await replier.reply(reply, continues: true)
            } catch {
                await authorizer.unwatch(id)
                throw error
            }
        }
        await authorizer.unwatch(id)
    }

    private func decide(_ p: DecideParameters, by owner: String?) async throws -> AppReply {
        let uid = try Self.checkApp(p.app, uid: p.uid)
        let level = p.level ?? .readWrite
        let (groups, fallback) = p.status == .limited && level == .readWrite
            ? try await checkedSelection(p) : (p.groups ?? [], p.fallback ?? false)
        return try await Self.answering {
            AppReply(app: try await authorizer.decide(
                p.app, uid: uid, status: p.status, assets: p.assets ?? [], groups: groups, fallback: fallback,
                confirmed: p.confirmed ?? false, level: level, by: owner).wire)
        }
    }

    /// A limited selection's groups as they will be kept: a name the fallback group answered to
    /// becomes the flag, so the record is unambiguous. A name or id that matches nothing would
    /// be a selection that shows nothing, decided in silence: `NoSuchGroup`, `NoSuchAsset`.
    private func checkedSelection(_ p: DecideParameters) async throws -> (groups: [String], fallback: Bool) {
        switch try await catalog.resolve(groups: p.groups ?? [], fallback: p.fallback ?? false, assets: p.assets ?? []) {
        case .problem(let problem): throw Self.varlinkError(problem)
        case .selection(let names, let fallback): return (names, fallback)
        }
    }

    /// `NoSuchGroup` or `NoSuchAsset` for a selection (or a pick) naming what the library lacks.
    static func varlinkError(_ problem: SelectionCatalog.Problem) -> VarlinkError {
        switch problem {
        case .noSuchGroup(let group, let closest):
            VarlinkError(AuthorizationInterface.Error.noSuchGroup, parameters: NoSuchGroupError(group: group, closest: closest))
        case .noSuchAsset(let asset, let closest):
            VarlinkError(AuthorizationInterface.Error.noSuchAsset, parameters: NoSuchAssetError(asset: asset, closest: closest))
        }
    }

    /// Runs one of the owner's calls, answering its refusals with the interface's errors.
    static func answering<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as AuthorizationCallError {
            throw varlinkError(error)
        }
    }

    /// Checks the APP and uid the owner named; the uid as the authorizer takes it.
    static func checkApp(_ app: String, uid: Int?) throws(VarlinkError) -> UInt32? {
        guard let uid else { return nil }
        guard let value = UInt32(exactly: uid) else { throw VarlinkError.invalidParameter("uid") }
        return value
    }

    static func varlinkError(_ error: AuthorizationCallError) -> VarlinkError {
        switch error {
        case .unknownApp(let app):
            return VarlinkError(AuthorizationInterface.Error.unknownApp, parameters: UnknownAppError(app: app))
        case .ambiguous(let app, let candidates):
            // Ids and the query come from apps and paths: escaped, so the text is one plain line.
            let names = candidates.map { SafeText.escaped($0.description, maxBytes: 300) }
            let shown = names.prefix(20).joined(separator: ", ") + (names.count > 20 ? ", …" : "")
            return VarlinkError(AuthorizationInterface.Error.invalidDecision, parameters: InvalidDecisionError(
                reason: "\"\(SafeText.escaped(app, maxBytes: 300))\" matches \(names.count) apps: \(shown); "
                    + "give the whole id, or a component (between / and :) only one of them has, or --uid"))
        case .tooManyApps(let limit):
            return VarlinkError(AuthorizationInterface.Error.tooManyApps, parameters: TooManyAppsError(
                limit: limit, hint: "photod keeps at most \(limit) apps; the owner can make room with "
                    + "photoctl permissions remove APP"))
        case .tooLarge(let parameter):
            return VarlinkError.invalidParameter(parameter)
        case .confirmationRequired(let app, let warning):
            return VarlinkError(AuthorizationInterface.Error.confirmationRequired,
                                parameters: ConfirmationRequiredError(app: app, warning: warning))
        case .refused(.restricted(let app)):
            return VarlinkError(AuthorizationInterface.Error.restricted, parameters: UnknownAppError(app: app))
        case .refused(.invalidDecision(let reason)):
            return VarlinkError(AuthorizationInterface.Error.invalidDecision, parameters: InvalidDecisionError(reason: reason))
        case .refused(.tooManyRequests(let app, let retryAfter)):
            return VarlinkError(AuthorizationInterface.Error.tooManyRequests,
                                parameters: TooManyRequestsError(app: app, retryAfter: retryAfter))
        }
    }
}
