#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import PhotoAPI

/// The changes apps asked for that wait for the owner (an app's `SetDescription`), as iOS asks
/// "Allow … to modify this photo?": each is announced to the owner's watchers (photod-notify,
/// `photoctl permissions prompt`) and ends once, allowed, denied, expired, withdrawn by the app
/// hanging up, or revoked when the app loses its access while it waits.
actor ChangeRequests {
    /// Most changes waiting at once, all apps together; one app has at most one.
    static let maximumWaiting = 64

    private let authorizer: Authorizer
    private let logger: Logger
    private var waiting = OwnerWaitList<PendingChange, ChangeAnswer>(noun: "change", maximum: ChangeRequests.maximumWaiting)
    /// The waiting changes' timers; `AuthorizationService` runs them.
    nonisolated let deadlines = RequestDeadlines<String>()

    /// Changes of apps whose access `authorizer` keeps.
    init(authorizer: Authorizer, logger: Logger) {
        self.authorizer = authorizer
        self.logger = logger
    }

    /// Asks the owner for `identity`'s change; the stream yields its one answer. Refused
    /// (`busy`) when the app already has a change waiting, when the most changes wait, or when
    /// the app asked more often than its `RequestBucket` allows.
    func ask(_ identity: AppIdentity, ids: [String], description: String?)
        async throws(ChangeRequestError) -> (change: PendingChange, answers: AsyncStream<ChangeAnswer>) {
        let key = AppKey(identity)
        // Read before any check: a check and its insertion must not have a suspension between them.
        let timeout = await authorizer.requestTimeout
        let record = await authorizer.record(of: key)
        let now = Date()
        let id: String
        do {
            id = try waiting.admit(key, asking: "to change photos", now: now)
        } catch {
            throw .busy(limit: error.limit, hint: error.hint)
        }
        let change = PendingChange(id: id, app: key, ids: ids, description: description,
                                   requestedAt: now, expiresAt: now.addingTimeInterval(timeout))
        let answers = waiting.insert(change)
        deadlines.schedule(change.id, at: change.expiresAt)
        // The description is the owner's to read in the prompt; the log gives only its length.
        logger.notice("change requested; waiting for the owner", metadata: [
            "app": "\(key.id)", "uid": "\(key.uid)", "change": "\(change.id)", "photos": "\(ids.count)",
            "description_bytes": "\(description?.utf8.count ?? 0)"])
        await authorizer.announce(AuthorizationEvent(kind: .changeRequested, app: record, change: change))
        return (change, answers)
    }

    /// The owner's answer, through the owner's client `by`.
    func answer(_ id: String, allow: Bool, by owner: String) async throws(ChangeRequestError)
        -> (change: PendingChange, app: AppAuthorization, answer: ChangeAnswer) {
        let answer: ChangeAnswer = allow ? .allowed : .denied
        guard let ended = await end(id, answer, by: owner) else { throw .noSuchChange(id) }
        return (ended.change, ended.app, answer)
    }

    /// The app hung up while its change waited.
    func withdraw(_ id: String) async {
        await end(id, .withdrawn)
    }

    /// The change's deadline passed unanswered.
    func expire(_ id: String) async {
        await end(id, .expired)
    }

    /// Every waiting change with its app's record, oldest first.
    func list() async -> [(change: PendingChange, app: AppAuthorization)] {
        var listed: [(change: PendingChange, app: AppAuthorization)] = []
        for change in waiting.oldestFirst {
            listed.append((change, await authorizer.record(of: change.app)))
        }
        return listed
    }

    /// Ends the changes of apps that can no longer see anything (denied, reset, removed) as
    /// they lose it; runs until cancelled.
    func followAccess() async {
        let (watch, events) = await authorizer.follow()
        for await event in events {
            switch event.kind {
            case .removed, .decided, .reset, .cancelled:
                // A removed app's allowance goes with its record, so the map holds only apps photod keeps.
                if event.kind == .removed { waiting.forget(event.app.key) }
                guard event.kind == .removed || event.app.visibility == .none else { continue }
                for id in waiting.ids(of: event.app.key) {
                    await end(id, .revoked)
                }
            case .requested, .selectionChanged, .changeRequested, .changeEnded, .pickRequested, .pickEnded:
                continue
            }
        }
        await authorizer.unwatch(watch)
    }

    /// Ends a waiting change with `answer` and tells the watchers; nil when none waits as `id`.
    @discardableResult
    private func end(_ id: String, _ answer: ChangeAnswer, by owner: String? = nil)
        async -> (change: PendingChange, app: AppAuthorization)? {
        guard let entry = waiting.remove(id) else { return nil }
        entry.answer.yield(answer)
        entry.answer.finish()
        let change = entry.request
        logger.notice("change ended", metadata: [
            "app": "\(change.app.id)", "uid": "\(change.app.uid)", "change": "\(id)", "answer": "\(answer.rawValue)",
            "by": "\(owner ?? "-")"])
        let record = await authorizer.record(of: change.app)
        await authorizer.announce(AuthorizationEvent(kind: .changeEnded, app: record, change: change, answer: answer))
        return (change, record)
    }
}

/// Why an app's change was not put before the owner, or an answer found nothing to answer.
enum ChangeRequestError: Error, Sendable, Equatable {
    /// The app, or all apps together, have as many changes waiting as they may.
    case busy(limit: Int, hint: String)
    /// No change waits under this id.
    case noSuchChange(String)
}
