import PhotoAPI
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One app's authorization as a pure state machine: events in, new state and actions out.
///
/// The caller owns storage, connections and timers: it tells the machine what happened (a
/// request, the owner's decision, a timer, a closed connection, a config reload) and performs
/// the returned actions in order. A failed call changes nothing and returns only `.fail`.
struct AuthorizationMachine: Sendable {
    /// What the caller must do after a transition.
    enum Action: Sendable, Equatable {
        /// Store the record. Comes first, so nothing is announced that a crash could undo.
        case persist(AppAuthorization)
        /// Reply to these waiting requests; `hint` is set for denied.
        case answer(waiters: [UInt64], status: AuthorizationStatus, pending: Bool, hint: String?)
        /// Send the event to the owner's watchers and to the app's own.
        case notify(AuthorizationEvent)
        /// Tell the app's live subscriptions which assets appeared or disappeared for them.
        case visibilityChanged(from: Visibility, to: Visibility)
        /// Call `timeout(deadline:)` with this date when it comes, unless the request ends first.
        case scheduleTimeout(at: Date)
        /// Refuse the owner's call with this error.
        case fail(AuthorizationFailure)
    }

    /// A request the owner has not answered yet.
    private struct PendingRequest: Sendable {
        var waiters: [UInt64]
        /// Also identifies the request, so that a timer armed for an earlier one is ignored.
        var deadline: Date
    }

    /// The app's state after the last transition.
    private(set) var record: AppAuthorization
    /// The policy the record is held to.
    private(set) var policy: AuthorizationPolicy
    private var request: PendingRequest?
    /// How many new requests the app may still start (joining a pending one is free).
    private var requests = RequestBucket()

    /// Restores an app; the record is brought in line with the policy (it may have changed
    /// since the record was stored) and loses any pending request, whose waiters were
    /// connections of an earlier run. Persist `record` when it differs from what was stored.
    init(record: AppAuthorization, policy: AuthorizationPolicy) {
        self.record = record
        self.policy = policy
        self.record.pending = false
        // An earlier status is only kept to be restored; unrestricted, it would linger in storage.
        if record.status != .restricted { self.record.statusBeforeRestriction = nil }
        _ = enforcePolicy()
    }

    /// The waiters of the pending request, oldest first.
    var waiters: [UInt64] { request?.waiters ?? [] }

    /// The app asks the owner for access (`RequestAuthorization`); `waiter` is its call. A new
    /// request beyond the app's `RequestBucket` fails (`.tooManyRequests`) and changes nothing.
    mutating func request(reason: String, label: String?, waiter: UInt64, now: Date) -> [Action] {
        guard record.status == .notDetermined else {
            // Decided apps are answered without the owner hearing of it: after a denial the
            // owner is not asked again, and the app cannot rewrite what the owner was shown.
            return [answer([waiter])]
        }
        if request == nil, let wait = requests.take(now: now) {
            return [.fail(.tooManyRequests(app: record.app, retryAfter: wait))]
        }
        let before = record
        record.reason = reason
        if let label { record.label = label }
        if var pending = request {
            // The owner already has a prompt; this caller waits for the same answer, and the
            // request keeps its deadline, which bounds how long the prompt stays up.
            if !pending.waiters.contains(waiter) { pending.waiters.append(waiter) }
            request = pending
            return outcome(since: before, answering: [waiter], event: nil)
        }
        let deadline = now.addingTimeInterval(policy.requestTimeout)
        request = PendingRequest(waiters: [waiter], deadline: deadline)
        record.requestedAt = now
        record.pending = true
        return outcome(since: before, answering: [waiter], event: .requested) + [.scheduleTimeout(at: deadline)]
    }

    /// The owner answers a request or changes a decision (`Decide`); a limited selection
    /// replaces the old one (`fallback`: it holds the fallback group). `by` is the deciding
    /// client's app id.
    mutating func decide(_ status: AuthorizationStatus, assets: [String], groups: [String], fallback: Bool = false,
                         by: String? = nil, now: Date) -> [Action] {
        guard record.status != .restricted else { return [.fail(.restricted(app: record.app))] }
        if let reason = Self.problem(deciding: status, assets: assets, groups: groups, fallback: fallback) {
            return [.fail(.invalidDecision(reason: reason))]
        }
        let before = record
        record.status = status
        record.assets = Self.unique(assets)
        record.groups = Self.unique(groups)
        record.fallback = fallback ? true : nil
        record.decidedAt = now
        record.decidedBy = by
        let released = endRequest()
        let kind: AuthorizationEventKind = before.status == .limited && status == .limited ? .selectionChanged : .decided
        return outcome(since: before, answering: released, event: kind)
    }

    /// The owner sends the app back to notDetermined (`Reset`), so that it may ask again.
    mutating func reset(by: String? = nil, now: Date) -> [Action] {
        guard record.status != .restricted else { return [.fail(.restricted(app: record.app))] }
        let before = record
        record.status = .notDetermined
        record.assets = []
        record.groups = []
        record.fallback = nil
        record.decidedAt = now
        record.decidedBy = by
        let released = endRequest()
        return outcome(since: before, answering: released, event: .reset)
    }

    /// The timer from `.scheduleTimeout(at: deadline)` fired: the owner did not answer in time.
    mutating func timeout(deadline: Date) -> [Action] {
        guard let pending = request, pending.deadline == deadline else { return [] }
        let before = record
        let released = endRequest()
        return outcome(since: before, answering: released, event: .cancelled)
    }

    /// A waiting caller went away (its connection closed); the last one leaving cancels the request.
    mutating func cancel(waiter: UInt64) -> [Action] {
        guard var pending = request, let index = pending.waiters.firstIndex(of: waiter) else { return [] }
        pending.waiters.remove(at: index)
        guard pending.waiters.isEmpty else {
            request = pending
            return []
        }
        let before = record
        _ = endRequest()
        return outcome(since: before, answering: [], event: .cancelled)
    }

    /// The config was reloaded: the app becomes restricted, or gets back what it had before.
    mutating func apply(policy: AuthorizationPolicy) -> [Action] {
        self.policy = policy
        return enforcePolicy()
    }

    /// Restricts or releases the app as the policy says.
    private mutating func enforcePolicy() -> [Action] {
        let before = record
        let restricted = policy.restricts(record.app)
        if restricted && record.status != .restricted {
            record.statusBeforeRestriction = record.status
            record.status = .restricted
            let released = endRequest()
            return outcome(since: before, answering: released, event: .decided)
        }
        if !restricted && record.status == .restricted {
            var restored = record.statusBeforeRestriction ?? .notDetermined
            // A limited status without a selection would show nothing yet claim a decision.
            if restored == .limited && record.assets.isEmpty && record.groups.isEmpty && record.fallback != true {
                restored = .notDetermined
            }
            if restored != .limited {
                record.assets = []
                record.groups = []
                record.fallback = nil
            }
            record.status = restored
            record.statusBeforeRestriction = nil
            return outcome(since: before, answering: [], event: restored == .notDetermined ? .reset : .decided)
        }
        return []
    }

    /// Ends the pending request, if any, and returns the waiters to answer.
    private mutating func endRequest() -> [UInt64] {
        let released = request?.waiters ?? []
        request = nil
        record.pending = false
        return released
    }

    /// The actions every change needs: persist, answer the released waiters, notify, and tell
    /// subscriptions when what the app sees really changed.
    private func outcome(since before: AppAuthorization, answering waiters: [UInt64],
                         event kind: AuthorizationEventKind?) -> [Action] {
        var actions: [Action] = []
        if record != before { actions.append(.persist(record)) }
        if !waiters.isEmpty { actions.append(answer(waiters)) }
        if let kind { actions.append(.notify(AuthorizationEvent(kind: kind, app: record))) }
        if before.visibility != record.visibility {
            actions.append(.visibilityChanged(from: before.visibility, to: record.visibility))
        }
        return actions
    }

    /// Answers waiters with the current status.
    private func answer(_ waiters: [UInt64]) -> Action {
        .answer(waiters: waiters, status: record.status, pending: record.pending,
                hint: record.status == .denied ? Self.resetHint(for: record.app, uid: record.uid) : nil)
    }

    /// Why a decision cannot be recorded as given, or nil when it can.
    private static func problem(deciding status: AuthorizationStatus, assets: [String], groups: [String],
                                fallback: Bool) -> String? {
        guard status.isDecision else {
            return "the owner decides authorized, limited or denied, not \(status.rawValue)"
        }
        if status == .limited {
            if assets.isEmpty && groups.isEmpty && !fallback { return "limited needs at least one asset or group" }
        } else if !assets.isEmpty || !groups.isEmpty || fallback {
            // A selection with another status would be dropped; refusing it catches the slip.
            return "assets and groups go with limited only, not with \(status.rawValue)"
        }
        if assets.contains("") || groups.contains("") { return "an asset id or group name is empty" }
        return nil
    }

    /// The names once each, in the order the owner gave them.
    private static func unique(_ names: [String]) -> [String] {
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }
    }
}
