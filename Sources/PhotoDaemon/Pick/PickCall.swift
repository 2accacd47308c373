import PhotoAPI
import Varlink

/// An app's `io.photod.Library.Pick`: the owner is asked (`PickRequests`), the app waits with a
/// pending reply, and hears the photos chosen, in order, or that it was cancelled.
struct PickCall: Sendable {
    /// The most photos one pick may ask for.
    static let maximumLimit = 1000
    /// The most groups one pick may open on (each name is bounded by the IDL).
    static let maximumGroups = 100

    let picks: PickRequests

    /// Serves one call. The owner is answered at once with `cancelled`: it sees every photo
    /// already, and there is nobody else to ask.
    func run(_ parameters: PickParameters, caller: Caller, call: VarlinkCall, replier: VarlinkReplier) async throws {
        let identity: AppIdentity
        switch caller {
        case .owner:
            return try await replier.reply(PickReply(cancelled: true))
        case .unidentified(let reason):
            throw AccessGate.unidentified(reason: reason)
        case .app(let app):
            identity = app
        }
        let limit = parameters.limit ?? 1
        guard (1...Self.maximumLimit).contains(limit) else { throw VarlinkError.invalidParameter("limit") }
        let groups = AuthorizationMachine.unique(parameters.groups ?? [])
        guard groups.count <= Self.maximumGroups else { throw VarlinkError.invalidParameter("groups") }
        let pick: PendingPick
        let outcomes: AsyncStream<PickOutcome>
        do {
            (pick, outcomes) = try await picks.ask(identity, reason: parameters.reason, label: parameters.label,
                                                   limit: limit, groups: groups)
        } catch {
            throw Self.varlinkError(error)
        }
        do {
            if call.more { try await replier.reply(PickReply(pending: true), continues: true) }
        } catch {
            await picks.withdraw(pick.id)
            throw error
        }
        var outcome: PickOutcome?
        for await given in outcomes {
            outcome = given
            break
        }
        switch outcome {
        case .picked(let ids): try await replier.reply(PickReply(ids: ids))
        case .ended: try await replier.reply(PickReply(cancelled: true))
        case nil:
            // No outcome: the call's task was cancelled, because the app hung up.
            await picks.withdraw(pick.id)
        }
    }

    /// The interfaces' error for a pick not put before the owner, or an answer not taken.
    static func varlinkError(_ error: PickRequestError) -> VarlinkError {
        switch error {
        case .busy(let limit, let hint):
            VarlinkError(LibraryInterface.Error.busy, parameters: BusyError(limit: limit, hint: hint))
        case .restricted(let record):
            VarlinkError(LibraryInterface.Error.authorizationRequired, parameters: AuthorizationRequiredError(
                status: record.status.rawValue, app: record.app, hint: AccessGate.hint(for: record)))
        case .noSuchPick(let id):
            VarlinkError(AuthorizationInterface.Error.noSuchPick, parameters: NoSuchPickError(id: id))
        case .refused(let refusal):
            AuthorizationAPI.varlinkError(refusal)
        }
    }
}
