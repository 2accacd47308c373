import Foundation
import Logging
import PhotoAPI
import Varlink

/// `io.photod.Authorization`: apps ask and learn their status; the owner lists, decides, resets
/// and watches.
struct AuthorizationAPI: Sendable {
    let authorizer: Authorizer
    let logger: Logger

    /// The longest reason and label (in characters) an app may give.
    static let maximumReason = 1000
    static let maximumLabel = 200

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
        case "ListApps", "Decide", "Reset":
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
            return Self.wire(await authorizer.record(for: identity))
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
        guard parameters.reason.count <= Self.maximumReason else { throw VarlinkError.invalidParameter("reason") }
        if let label = parameters.label, label.count > Self.maximumLabel {
            throw VarlinkError.invalidParameter("label")
        }
        let (waiter, answers) = await authorizer.request(identity, reason: parameters.reason, label: parameters.label)
        for await answer in answers {
            if answer.pending {
                if call.more { try await replier.reply(answer, continues: true) }
                continue
            }
            try await replier.reply(answer)
            return
        }
        // The stream ended without a final answer: the caller hung up (the task was cancelled).
        await authorizer.cancel(app: identity.id, waiter: waiter)
    }

    private func watch(_ call: VarlinkCall, caller: Caller, replier: VarlinkReplier) async throws {
        guard call.more else { throw VarlinkError.expectedMore() }
        let app: String?
        switch caller {
        case .owner: app = nil
        case .app(let identity): app = identity.id
        case .unidentified(let reason):
            throw AccessGate.unidentified(reason: reason)
        }
        let (id, events) = await authorizer.watch(app: app)
        for await event in events {
            let reply = AuthorizationEventReply(event: .init(kind: event.kind, app: Self.wire(event.app)))
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
                try await replier.reply(ListAppsReply(apps: await authorizer.allRecords().map(Self.wire)))
            case "Decide":
                let p = try call.parameters(DecideParameters.self)
                let record = try await authorizer.decide(p.app, status: p.status, assets: p.assets ?? [], groups: p.groups ?? [])
                try await replier.reply(AppReply(app: Self.wire(record)))
            default:
                let p = try call.parameters(ResetParameters.self)
                try await replier.reply(AppReply(app: Self.wire(try await authorizer.reset(p.app))))
            }
        } catch let error as AuthorizationCallError {
            throw Self.varlinkError(error)
        }
    }

    static func varlinkError(_ error: AuthorizationCallError) -> VarlinkError {
        switch error {
        case .unknownApp(let app):
            return VarlinkError(AuthorizationInterface.Error.unknownApp, parameters: UnknownAppError(app: app))
        case .ambiguous(let app, let candidates):
            return VarlinkError(AuthorizationInterface.Error.invalidDecision, parameters: InvalidDecisionError(
                reason: "\"\(app)\" matches several apps: \(candidates.joined(separator: ", ")); give more of the id"))
        case .refused(.restricted(let app)):
            return VarlinkError(AuthorizationInterface.Error.restricted, parameters: UnknownAppError(app: app))
        case .refused(.invalidDecision(let reason)):
            return VarlinkError(AuthorizationInterface.Error.invalidDecision, parameters: InvalidDecisionError(reason: reason))
        }
    }

    private static func isoTime(_ date: Date) -> String {
        ISOTime.utcString(nanoseconds: Int64(date.timeIntervalSince1970 * 1_000_000_000))
    }

    /// The record as the wire shows it.
    static func wire(_ record: AppAuthorization) -> App {
        App(id: record.app, uid: Int(record.uid), label: record.label, status: record.status, reason: record.reason,
            requestedAt: record.requestedAt.map(Self.isoTime),
            decidedAt: record.decidedAt.map(Self.isoTime),
            assets: record.assets, groups: record.groups, pending: record.pending)
    }
}
