import PhotoAPI
import Store
import Varlink

/// An app's `io.photod.Library.SetDescription`: the photos are checked against what the app
/// may see, the owner is asked (`ChangeRequests`), and only an allowed change is written, by
/// `SetDescriptionCall`, with what the app may see once it is allowed.
struct AppDescriptionCall: Sendable {
    let describing: SetDescriptionCall
    let changes: ChangeRequests
    let gate: AccessGate

    /// Serves one call of `identity`, which may see `access` now.
    func run(_ parameters: SetDescriptionParameters, identity: AppIdentity, access: LibraryAccess, call: VarlinkCall,
             replier: VarlinkReplier) async throws {
        try SetDescriptionCall.checkWritable(parameters.description)
        let (ids, _) = try await describing.checked(parameters.ids, access: access)
        let change: PendingChange
        let answers: AsyncStream<ChangeAnswer>
        do {
            (change, answers) = try await changes.ask(identity, ids: ids, description: parameters.description)
        } catch {
            throw Self.varlinkError(error)
        }
        do {
            if call.more { try await replier.reply(SetDescriptionReply(pending: true), continues: true) }
        } catch {
            await changes.withdraw(change.id)
            throw error
        }
        var answer: ChangeAnswer?
        for await given in answers {
            answer = given
            break
        }
        // No answer: the call's task was cancelled, because the app hung up.
        guard let answer else {
            await changes.withdraw(change.id)
            return
        }
        guard answer == .allowed else { throw Self.notAllowed(answer) }
        // What the app may see now, not when it asked: access lost while it waited is not used.
        let now: LibraryAccess
        do {
            now = try await gate.access(for: .app(identity))
            _ = try await describing.checked(ids, access: now)
        } catch {
            throw Self.notAllowed(.revoked)
        }
        try await replier.reply(try await describing.run(parameters, access: now, caller: .app(identity)))
    }

    /// `ChangeNotAllowed` for an answer other than allowed.
    static func notAllowed(_ answer: ChangeAnswer) -> VarlinkError {
        let hint = switch answer {
        case .denied: "the owner denied this change; nothing was written"
        case .expired: "the owner did not answer in time; nothing was written. Ask again later"
        default: "the app lost its access to these photos while it waited; nothing was written"
        }
        return VarlinkError(LibraryInterface.Error.changeNotAllowed,
                            parameters: ChangeNotAllowedError(answer: answer.rawValue, hint: hint))
    }

    /// The interface's error for a change not put before the owner.
    static func varlinkError(_ error: ChangeRequestError) -> VarlinkError {
        switch error {
        case .busy(let limit, let hint):
            VarlinkError(LibraryInterface.Error.busy, parameters: BusyError(limit: limit, hint: hint))
        case .noSuchChange(let id):
            VarlinkError(AuthorizationInterface.Error.noSuchChange, parameters: NoSuchChangeError(id: id))
        }
    }
}
