import PhotoAPI
import Varlink

/// The owner's side of the picker: the waiting picks, answering one, and the photos picked for
/// an app (`ListPicks`, `AnswerPick`, `GetPicked`, `Unpick`).
extension AuthorizationAPI {
    /// Registers the picker's owner-only methods (the table refuses them to anyone else).
    func addPickRoutes(to table: inout RouteTable<Void>) {
        table.on(AuthorizationMethods.listPicks) { _ in
            ListPicksReply(picks: await picks.list().map { $0.pick.wire(app: $0.app.wire) })
        }
        table.on(AuthorizationMethods.answerPick) { try await answerPick($0.parameters, by: $0.caller.appID) }
        table.on(AuthorizationMethods.getPicked) { request in
            let uid = try Self.checkApp(request.parameters.app, uid: request.parameters.uid)
            return try await Self.answering {
                GetPickedReply(ids: try await authorizer.app(request.parameters.app, uid: uid).pickedIDs)
            }
        }
        table.on(AuthorizationMethods.unpick) { request in
            let p = request.parameters
            let uid = try Self.checkApp(p.app, uid: p.uid)
            return try await Self.answering {
                let key = try await authorizer.app(p.app, uid: uid).key
                return AppReply(app: try await authorizer.transition(key) { $0.unpick(p.ids) }.wire)
            }
        }
    }

    /// Answers a waiting pick: with `ids` (each once, in order, at most the pick's limit, each
    /// in the library), or cancelled; exactly one of the two.
    private func answerPick(_ p: AnswerPickParameters, by owner: String) async throws -> AnswerPickReply {
        let cancel = p.cancel ?? false
        if cancel && !(p.ids ?? []).isEmpty { throw VarlinkError.invalidParameter("cancel") }
        let ids = AuthorizationMachine.unique(p.ids ?? [])
        if !cancel && ids.isEmpty { throw VarlinkError.invalidParameter("ids") }
        guard let waiting = await picks.waitingPick(p.id) else {
            throw PickCall.varlinkError(.noSuchPick(p.id))
        }
        if !cancel {
            guard ids.count <= waiting.limit else { throw VarlinkError.invalidParameter("ids") }
            if case .problem(let problem) = try await catalog.resolve(groups: [], fallback: false, assets: ids) {
                throw Self.varlinkError(problem)
            }
        }
        do throws(PickRequestError) {
            let ended = try await picks.answer(p.id, ids: cancel ? nil : ids, by: owner)
            return AnswerPickReply(pick: ended.pick.wire(app: ended.app.wire), answer: ended.answer,
                                   ids: cancel ? [] : ids)
        } catch {
            throw PickCall.varlinkError(error)
        }
    }
}
