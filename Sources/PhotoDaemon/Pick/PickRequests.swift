#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import PhotoAPI

/// The apps waiting for the owner to choose photos for them (an app's `Pick`), as PhotoKit's
/// picker: each is announced to the owner's watchers (photod-notify, `photoctl pick`) and ends
/// once: picked, cancelled, expired, withdrawn by the app hanging up, or revoked when the policy
/// restricts the app or the owner removes it while it waits.
actor PickRequests {
    /// Most picks waiting at once, all apps together; one app has at most one.
    static let maximumWaiting = 64

    private typealias Waiting = OwnerWaitList<PendingPick, PickOutcome>.Entry

    private let authorizer: Authorizer
    private let logger: Logger
    private var waiting = OwnerWaitList<PendingPick, PickOutcome>(noun: "pick", maximum: PickRequests.maximumWaiting)
    /// The waiting picks' timers; `AuthorizationService` runs them.
    nonisolated let deadlines = RequestDeadlines<String>()

    /// Picks of apps whose records `authorizer` keeps.
    init(authorizer: Authorizer, logger: Logger) {
        self.authorizer = authorizer
        self.logger = logger
    }

    /// Asks the owner to choose up to `limit` photos for `identity`; the stream yields its one
    /// outcome. The app gets a record (and so a record slot) if it had none, since the photos
    /// picked are kept there. Refused (`busy`) when the app already has a pick waiting, when the
    /// most picks wait, or when the app asked more often than its `RequestBucket` allows.
    func ask(_ identity: AppIdentity, reason: String, label: String?, limit: Int, groups: [String])
        async throws(PickRequestError) -> (pick: PendingPick, outcomes: AsyncStream<PickOutcome>) {
        let key = AppKey(identity)
        // Everything that suspends comes first: a check and its insertion must not have a suspension between them.
        let timeout = await authorizer.requestTimeout
        // A restricted app is refused before it takes a record slot.
        let known = await authorizer.record(of: key)
        guard known.status != .restricted else { throw .restricted(known) }
        let record: AppAuthorization
        do {
            // No transition: this only makes the record the picks will be kept in.
            record = try await authorizer.transition(key, creating: true) { _ in [] }
        } catch {
            throw .refused(error)
        }
        let now = Date()
        let id: String
        do {
            id = try waiting.admit(key, asking: "the owner to pick photos", now: now)
        } catch {
            throw .busy(limit: error.limit, hint: error.hint)
        }
        let pick = PendingPick(id: id, app: key, reason: reason, label: label, limit: limit,
                               groups: groups, requestedAt: now, expiresAt: now.addingTimeInterval(timeout))
        let outcomes = waiting.insert(pick)
        deadlines.schedule(pick.id, at: pick.expiresAt)
        // The reason is the owner's to read in the picker; the log gives only its length.
        logger.notice("pick requested; waiting for the owner", metadata: [
            "app": "\(key.id)", "uid": "\(key.uid)", "pick": "\(pick.id)", "limit": "\(limit)",
            "groups": "\(groups.count)", "reason_bytes": "\(reason.utf8.count)"])
        await authorizer.announce(AuthorizationEvent(kind: .pickRequested, app: record, pick: pick))
        return (pick, outcomes)
    }

    /// The waiting pick named `id`, for the owner's answer to be checked against.
    func waitingPick(_ id: String) -> PendingPick? {
        waiting.request(id)
    }

    /// The owner's answer through the owner's client `by`: `ids` (checked against the library
    /// and the pick's limit by the caller) are kept with the app's record before the app hears
    /// them; nil cancels.
    func answer(_ id: String, ids: [String]?, by owner: String) async throws(PickRequestError)
        -> (pick: PendingPick, app: AppAuthorization, answer: ChangeAnswer) {
        // Claimed before storing suspends, so a deadline or hang-up meanwhile finds nothing to end.
        guard let entry = waiting.remove(id) else { throw .noSuchPick(id) }
        guard let ids else {
            let record = await finish(entry, .ended(.denied), answer: .denied, by: owner)
            return (entry.request, record, .denied)
        }
        do {
            _ = try await authorizer.transition(entry.request.app) { $0.pick(ids, maximum: PickedPhotos.maximumPerApp) }
        } catch {
            // Nothing was kept: the pick waits on for an answer that fits.
            waiting.restore(entry)
            deadlines.schedule(id, at: entry.request.expiresAt)
            throw .refused(error)
        }
        let record = await finish(entry, .picked(ids), answer: .allowed, by: owner, picked: ids.count)
        return (entry.request, record, .allowed)
    }

    /// The app hung up while its pick waited.
    func withdraw(_ id: String) async {
        await end(id, .withdrawn)
    }

    /// The pick's deadline passed unanswered.
    func expire(_ id: String) async {
        await end(id, .expired)
    }

    /// Every waiting pick with its app's record, oldest first.
    func list() async -> [(pick: PendingPick, app: AppAuthorization)] {
        var listed: [(pick: PendingPick, app: AppAuthorization)] = []
        for pick in waiting.oldestFirst {
            listed.append((pick, await authorizer.record(of: pick.app)))
        }
        return listed
    }

    /// Ends the picks of apps the policy restricts or the owner removes, as it happens; runs
    /// until cancelled. (A denied or reset app may still pick: the owner chooses every photo.)
    func followAccess() async {
        let (watch, events) = await authorizer.follow()
        for await event in events {
            switch event.kind {
            case .removed, .decided:
                // A removed app's allowance goes with its record, so the map holds only apps photod keeps.
                if event.kind == .removed { waiting.forget(event.app.key) }
                guard event.kind == .removed || event.app.status == .restricted else { continue }
                for id in waiting.ids(of: event.app.key) {
                    await end(id, .revoked)
                }
            case .requested, .reset, .cancelled, .selectionChanged, .changeRequested, .changeEnded, .pickRequested,
                 .pickEnded:
                continue
            }
        }
        await authorizer.unwatch(watch)
    }

    /// Ends a waiting pick without photos and tells the watchers.
    private func end(_ id: String, _ answer: ChangeAnswer) async {
        guard let entry = waiting.remove(id) else { return }
        await finish(entry, .ended(answer), answer: answer, by: nil)
    }

    /// Gives the app its outcome, logs, and announces `pickEnded`; returns the app's record.
    @discardableResult
    private func finish(_ entry: Waiting, _ outcome: PickOutcome, answer: ChangeAnswer, by owner: String?,
                        picked: Int? = nil) async -> AppAuthorization {
        entry.answer.yield(outcome)
        entry.answer.finish()
        let pick = entry.request
        logger.notice("pick ended", metadata: [
            "app": "\(pick.app.id)", "uid": "\(pick.app.uid)", "pick": "\(pick.id)", "answer": "\(answer.rawValue)",
            "photos": "\(picked ?? 0)", "by": "\(owner ?? "-")"])
        let record = await authorizer.record(of: pick.app)
        await authorizer.announce(AuthorizationEvent(kind: .pickEnded, app: record, answer: answer, pick: pick,
                                                     picked: picked))
        return record
    }
}

/// Why an app's pick was not put before the owner, or an answer was not taken.
enum PickRequestError: Error, Sendable, Equatable {
    /// The app, or all apps together, have as many picks waiting as they may.
    case busy(limit: Int, hint: String)
    /// The policy restricts the app (its record as it is).
    case restricted(AppAuthorization)
    /// No pick waits under this id.
    case noSuchPick(String)
    /// The authorizer refused: no record slot for a new app, or picks beyond the app's cap.
    case refused(AuthorizationCallError)
}
