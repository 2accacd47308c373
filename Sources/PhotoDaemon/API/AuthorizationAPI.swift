import Foundation
import Logging
import PhotoAPI
import SafeText
import Varlink

/// `io.photod.Authorization`: apps ask and learn their status; the owner lists, decides, resets
/// and watches.
struct AuthorizationAPI: Sendable {
    let authorizer: Authorizer
    let logger: Logger

    var interface: VarlinkInterface {
        VarlinkInterface(name: AuthorizationInterface.name, description: InterfaceText.authorization) {
            call, context, replier in
            try await handle(call, caller: Caller.of(context), replier: replier)
        }
    }

    func handle(_ call: VarlinkCall, caller: Caller, replier: VarlinkReplier) async throws {
        switch call.methodName {
        case "Status":
            try await replier.reply(AppReply(app: try await ownApp(caller)))
        case "RequestAuthorization":
            try await request(call, caller: caller, replier: replier)
        case "Watch":
            try await watch(call, caller: caller, replier: replier)
        case "ListApps", "Decide", "Reset", "Remove":
            guard case .owner = caller else {
                throw AccessGate.ownerOnly(call.methodName, interface: AuthorizationInterface.name)
            }
            try await ownerCall(call, replier: replier)
        default:
            throw VarlinkError.methodNotFound(call.method)
        }
    }

    /// The caller's own record; the owner is always authorized.
    private func ownApp(_ caller: Caller) async throws -> App {
        switch caller {
        case .owner(let identity):
            return App(id: identity.id, uid: Int(identity.uid), status: .authorized)
        case .app(let identity):
            return await authorizer.record(for: identity).wire
        case .unidentified(let reason):
            throw AccessGate.unidentified(reason: reason)
        }
    }

    private func request(_ call: VarlinkCall, caller: Caller, replier: VarlinkReplier) async throws {
        let parameters = try call.parameters(RequestAuthorizationParameters.self)
        let identity: AppIdentity
        switch caller {
        case .owner:
            // The owner already sees everything; there is nobody to ask.
            try await replier.reply(RequestAuthorizationReply(status: .authorized, pending: false))
            return
        case .unidentified(let reason):
            throw AccessGate.unidentified(reason: reason)
        case .app(let app):
            identity = app
        }
        // Too long to show the owner in a prompt: refused whole, never cut short in silence.
        try ParameterLimits.check(parameters.reason, atMost: ParameterLimits.reason, "reason")
        try ParameterLimits.check(parameters.label, atMost: ParameterLimits.label, "label")
        let waiter: UInt64
        let answers: AsyncStream<RequestAuthorizationReply>
        do {
            (waiter, answers) = try await authorizer.request(identity, reason: parameters.reason, label: parameters.label)
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
            let reply = AuthorizationEventReply(event: .init(kind: event.kind, app: event.app.wire))
            do {
                try await replier.reply(reply, continues: true)
            } catch {
                await authorizer.unwatch(id)
                throw error
            }
        }
        await authorizer.unwatch(id)
    }

    private func ownerCall(_ call: VarlinkCall, replier: VarlinkReplier) async throws {
        do {
            switch call.methodName {
            case "ListApps":
                try await replier.reply(ListAppsReply(apps: await authorizer.allRecords().map(\.wire)))
            case "Decide":
                let p = try call.parameters(DecideParameters.self)
                let uid = try Self.checkApp(p.app, uid: p.uid)
                try ParameterLimits.check(p.assets, atMost: ParameterLimits.assetID, "assets")
                try ParameterLimits.check(p.groups, atMost: ParameterLimits.groupName, "groups")
                let record = try await authorizer.decide(
                    p.app, uid: uid, status: p.status, assets: p.assets ?? [], groups: p.groups ?? [])
                try await replier.reply(AppReply(app: record.wire))
            case "Reset":
                let p = try call.parameters(ResetParameters.self)
                let uid = try Self.checkApp(p.app, uid: p.uid)
                try await replier.reply(AppReply(app: try await authorizer.reset(p.app, uid: uid).wire))
            default:
                let p = try call.parameters(RemoveParameters.self)
                let uid = try Self.checkApp(p.app, uid: p.uid)
                try await replier.reply(AppReply(app: try await authorizer.remove(p.app, uid: uid).wire))
            }
        } catch let error as AuthorizationCallError {
            throw Self.varlinkError(error)
        }
    }

    /// Checks the APP and uid the owner named; the uid as the authorizer takes it.
    private static func checkApp(_ app: String, uid: Int?) throws(VarlinkError) -> UInt32? {
        try ParameterLimits.check(app, atMost: ParameterLimits.app, "app")
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
        case .refused(.restricted(let app)):
            return VarlinkError(AuthorizationInterface.Error.restricted, parameters: UnknownAppError(app: app))
        case .refused(.invalidDecision(let reason)):
            return VarlinkError(AuthorizationInterface.Error.invalidDecision, parameters: InvalidDecisionError(reason: reason))
        }
    }
}
