import PhotoAPI
import Varlink

/// A `RequestAuthorization` with needs (PermissionScope): every level asked for in one go, each
/// with its reason, answered once the owner has decided them all, with each level's status and
/// the required ones that were not granted.
struct NeedsRequest: Sendable {
    let authorizer: Authorizer

    /// The needs of a call, checked: one or two, each a different level, each reason within its
    /// limit, and no single-form reason or level beside them.
    static func needs(of parameters: RequestAuthorizationParameters) throws(VarlinkError) -> [Need]? {
        guard let needs = parameters.needs else { return nil }
        guard parameters.reason == nil else { throw VarlinkError.invalidParameter("reason") }
        guard parameters.level == nil else { throw VarlinkError.invalidParameter("level") }
        guard (1...AccessLevel.allCases.count).contains(needs.count), Set(needs.map(\.level)).count == needs.count,
              needs.allSatisfy({ $0.fieldOverByteLimit() == nil }) else {
            throw VarlinkError.invalidParameter("needs")
        }
        return needs
    }

    /// Asks for every need of `identity`; with `more`, a first reply while any waits.
    func run(_ needs: [Need], label: String?, identity: AppIdentity, call: VarlinkCall,
             replier: VarlinkReplier) async throws {
        let key = AppKey(identity)
        let required = needs.filter(\.required).map(\.level)
        var started: [(level: AccessLevel, waiter: UInt64, answers: AsyncStream<RequestAuthorizationReply>)] = []
        do {
            for need in needs {
                let (waiter, answers) = try await authorizer.request(
                    identity, reason: need.reason, label: label, level: need.level, required: required)
                started.append((need.level, waiter, answers))
            }
        } catch {
            for request in started { await authorizer.cancel(app: key, waiter: request.waiter) }
            throw AuthorizationAPI.varlinkError(error)
        }
        var statuses: [AccessLevel: AuthorizationStatus] = [:]
        var finished: Set<AccessLevel> = []
        var sentPending = false
        for request in started {
            var answers = request.answers.makeAsyncIterator()
            while let answer = await answers.next() {
                statuses[request.level] = answer.status
                guard answer.pending else {
                    finished.insert(request.level)
                    break
                }
                if call.more && !sentPending {
                    sentPending = true
                    try await replier.reply(Self.reply(needs, statuses, pending: true), continues: true)
                }
            }
            // No final answer: the caller hung up; the requests still waiting end with it.
            guard finished.contains(request.level) else {
                for other in started where !finished.contains(other.level) {
                    await authorizer.cancel(app: key, waiter: other.waiter)
                }
                return
            }
        }
        try await replier.reply(Self.reply(needs, statuses, pending: false))
    }

    /// The reply for `needs` with the statuses known so far (a level not answered yet is notDetermined).
    static func reply(_ needs: [Need], _ statuses: [AccessLevel: AuthorizationStatus], pending: Bool)
        -> RequestAuthorizationReply {
        let each = needs.map { LevelStatus(level: $0.level, status: statuses[$0.level] ?? .notDetermined) }
        let missing = pending ? [] : needs.filter { $0.required && !grants(statuses[$0.level], at: $0.level) }
        return RequestAuthorizationReply(status: each.first?.status ?? .notDetermined, pending: pending, statuses: each,
                                         missingRequired: missing.map(\.level.rawValue))
    }

    /// Whether `status` lets the app do what `level` is about.
    static func grants(_ status: AuthorizationStatus?, at level: AccessLevel) -> Bool {
        switch (level, status) {
        case (.readWrite, .authorized), (.readWrite, .limited), (.addOnly, .authorized): true
        default: false
        }
    }
}
