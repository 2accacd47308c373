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
        /// Reply to these waiting requests (of one level); `hint` is set for denied.
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
    /// The add-only level's own request: the owner answers the two levels apart.
    private var addRequest: PendingRequest?
    /// How many new requests the app may still start (joining a pending one is free).
    private var requests = RequestBucket()

    /// Restores an app; the record is brought in line with the policy (it may have changed
    /// since the record was stored) and loses any pending request, whose waiters were
    /// connections of an earlier run. Persist `record` when it differs from what was stored.
    init(record: AppAuthorization, policy: AuthorizationPolicy) {
        self.record = record
        self.policy = policy
        self.record.pending = false
        self.record.add.pending = false
        // An earlier status is only kept to be restored; unrestricted, it would linger in storage.
        if record.status != .restricted { self.record.statusBeforeRestriction = nil }
        if record.add.status != .restricted { self.record.add.statusBeforeRestriction = nil }
        _ = enforcePolicy()
    }

    /// The waiters of the pending requests (both levels), oldest first.
    var waiters: [UInt64] { (request?.waiters ?? []) + (addRequest?.waiters ?? []) }

    /// The app asks the owner for access at `level` (`RequestAuthorization`); `waiter` is its
    /// call. A new request beyond the app's `RequestBucket` (shared by the levels) fails
    /// (`.tooManyRequests`) and changes nothing.
    mutating func request(reason: String, label: String?, level: AccessLevel = .readWrite, waiter: UInt64,
                          now: Date) -> [Action] {
        guard record.effectiveStatus(at: level) == .notDetermined else {
            // Decided apps are answered without the owner hearing of it: after a denial the
            // owner is not asked again, and the app cannot rewrite what the owner was shown.
            return [answer([waiter], level: level)]
        }
        if pending(level) == nil, let wait = requests.take(now: now) {
            return [.fail(.tooManyRequests(app: record.app, retryAfter: wait))]
        }
        let before = record
        if let label { record.label = label }
        switch level {
        case .readWrite: record.reason = reason
        case .addOnly: record.add.reason = reason
        }
        if var pending = pending(level) {
            // The owner already has a prompt; this caller waits for the same answer, and the
            // request keeps its deadline, which bounds how long the prompt stays up.
            if !pending.waiters.contains(waiter) { pending.waiters.append(waiter) }
            setPending(level, pending)
            return outcome(since: before, answering: [waiter], level: level, event: nil)
        }
        let deadline = now.addingTimeInterval(policy.requestTimeout)
        setPending(level, PendingRequest(waiters: [waiter], deadline: deadline))
        switch level {
        case .readWrite: record.requestedAt = now
        case .addOnly: record.add.requestedAt = now
        }
        return outcome(since: before, answering: [waiter], level: level, event: .requested)
            + [.scheduleTimeout(at: deadline)]
    }

    /// The levels the app says it cannot work without (its request with needs), kept for the
    /// owner to see while deciding.
    mutating func require(_ levels: [AccessLevel]) -> [Action] {
        let before = record
        record.required = levels.isEmpty ? nil : levels
        return outcome(since: before, answering: [], event: nil)
    }

    /// The owner decides the add-only level (`Decide` with level addOnly): authorized or denied.
    mutating func decideAdding(_ status: AuthorizationStatus, by: String? = nil, now: Date) -> [Action] {
        guard record.status != .restricted else { return [.fail(.restricted(app: record.app))] }
        guard status == .authorized || status == .denied else {
            return [.fail(.invalidDecision(reason: "adding photos is authorized or denied, not \(status.rawValue)"))]
        }
        let before = record
        record.add.status = status
        record.add.decidedAt = now
        record.add.decidedBy = by
        let released = endRequest(.addOnly)
        return outcome(since: before, answering: released, level: .addOnly, event: .decided)
    }

    /// The owner sends the add-only level back to notDetermined (`Reset` with level addOnly).
    mutating func resetAdding(by: String? = nil, now: Date) -> [Action] {
        guard record.status != .restricted else { return [.fail(.restricted(app: record.app))] }
        let before = record
        record.add.status = .notDetermined
        record.add.decidedAt = now
        record.add.decidedBy = by
        let released = endRequest(.addOnly)
        return outcome(since: before, answering: released, level: .addOnly, event: .reset)
    }

    /// A limited app added photos (`Import`): they join its selection, as PhotoKit's do, while
    /// the record stays within `fits`; past it they are only its receipts.
    mutating func added(_ assets: [String], fits: (AppAuthorization) -> Bool) -> [Action] {
        guard record.status == .limited else { return [] }
        let before = record
        var grown = record
        grown.assets = Self.unique(record.assets + assets)
        guard grown.assets != record.assets, fits(grown) else { return [] }
        record = grown
        return outcome(since: before, answering: [], event: .selectionChanged)
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
        let released = endRequest(.readWrite)
        // Seeing the library includes adding to it: a waiting add-only request has its answer too.
        let releasedAdding = status.grantsAccess ? endRequest(.addOnly) : []
        let kind: AuthorizationEventKind = before.status == .limited && status == .limited ? .selectionChanged : .decided
        return outcome(since: before, answering: released, event: kind) + endedAdding(releasedAdding)
    }

    /// The owner sends the app back to notDetermined (`Reset`), so that it may ask again; the
    /// photos picked for it go too, as everything it was given does.
    mutating func reset(by: String? = nil, now: Date) -> [Action] {
        guard record.status != .restricted else { return [.fail(.restricted(app: record.app))] }
        let before = record
        record.status = .notDetermined
        record.assets = []
        record.groups = []
        record.fallback = nil
        record.pickedIDs = []
        record.decidedAt = now
        record.decidedBy = by
        let released = endRequest(.readWrite)
        return outcome(since: before, answering: released, event: .reset)
    }

    /// The owner picked `ids` for the app (`AnswerPick`): they follow the photos picked before,
    /// each once. More than `maximum` in all fails and changes nothing: the owner is told,
    /// rather than older picks silently dropped.
    mutating func pick(_ ids: [String], maximum: Int) -> [Action] {
        let merged = Self.unique(record.pickedIDs + ids)
        guard merged.count <= maximum else {
            return [.fail(.invalidDecision(reason: "the app would have \(merged.count) picked photos; photod keeps "
                + "at most \(maximum) per app: take some back first (photoctl permissions unpick APP ID…)"))]
        }
        let before = record
        record.pickedIDs = merged
        // pickEnded, which `PickRequests` announces, tells the watchers.
        return outcome(since: before, answering: [], event: nil)
    }

    /// The owner takes picked photos back (`Unpick`): these `ids`, or all of them when nil.
    mutating func unpick(_ ids: [String]?) -> [Action] {
        let before = record
        if let ids {
            let dropped = Set(ids)
            record.pickedIDs = record.pickedIDs.filter { !dropped.contains($0) }
        } else {
            record.pickedIDs = []
        }
        guard record != before else { return [] }
        return outcome(since: before, answering: [], event: .selectionChanged)
    }

    /// The timer from `.scheduleTimeout(at: deadline)` fired: the owner did not answer in time.
    mutating func timeout(deadline: Date) -> [Action] {
        AccessLevel.allCases.flatMap { level -> [Action] in
            guard let pending = pending(level), pending.deadline == deadline else { return [] }
            let before = record
            let released = endRequest(level)
            return outcome(since: before, answering: released, level: level, event: .cancelled)
        }
    }

    /// A waiting caller went away (its connection closed); the last one leaving cancels the request.
    mutating func cancel(waiter: UInt64) -> [Action] {
        for level in AccessLevel.allCases {
            guard var pending = pending(level), let index = pending.waiters.firstIndex(of: waiter) else { continue }
            pending.waiters.remove(at: index)
            guard pending.waiters.isEmpty else {
                setPending(level, pending)
                return []
            }
            let before = record
            _ = endRequest(level)
            return outcome(since: before, answering: [], level: level, event: .cancelled)
        }
        return []
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
            record.add.statusBeforeRestriction = record.add.status
            record.add.status = .restricted
            let released = endRequest(.readWrite)
            let releasedAdding = endRequest(.addOnly)
            return outcome(since: before, answering: released, event: .decided) + endedAdding(releasedAdding)
        }
        if !restricted && record.status == .restricted {
            record.add.status = record.add.statusBeforeRestriction ?? .notDetermined
            record.add.statusBeforeRestriction = nil
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

    /// The answer and event for an add-only request that a readWrite decision or the policy
    /// ended: the waiters hear their new status, and the owner's clients close its prompt.
    private func endedAdding(_ waiters: [UInt64]) -> [Action] {
        guard !waiters.isEmpty else { return [] }
        return [answer(waiters, level: .addOnly), .notify(AuthorizationEvent(kind: .decided, app: record, level: .addOnly))]
    }

    /// The level's pending request.
    private func pending(_ level: AccessLevel) -> PendingRequest? {
        switch level {
        case .readWrite: request
        case .addOnly: addRequest
        }
    }

    /// Records the level's pending request, and the record's pending flag with it.
    private mutating func setPending(_ level: AccessLevel, _ pending: PendingRequest?) {
        switch level {
        case .readWrite:
            request = pending
            record.pending = pending != nil
        case .addOnly:
            addRequest = pending
            record.add.pending = pending != nil
        }
    }

    /// Ends the level's pending request, if any, and returns the waiters to answer.
    private mutating func endRequest(_ level: AccessLevel) -> [UInt64] {
        let released = pending(level)?.waiters ?? []
        setPending(level, nil)
        return released
    }

    /// The actions every change needs: persist, answer the released waiters, notify, and tell
    /// subscriptions when what the app sees really changed.
    private func outcome(since before: AppAuthorization, answering waiters: [UInt64], level: AccessLevel = .readWrite,
                         event kind: AuthorizationEventKind?) -> [Action] {
        var actions: [Action] = []
        if record != before { actions.append(.persist(record)) }
        if !waiters.isEmpty { actions.append(answer(waiters, level: level)) }
        if let kind { actions.append(.notify(AuthorizationEvent(kind: kind, app: record, level: level))) }
        if before.visibility != record.visibility {
            actions.append(.visibilityChanged(from: before.visibility, to: record.visibility))
        }
        return actions
    }

    /// Answers waiters with the level's current status.
    private func answer(_ waiters: [UInt64], level: AccessLevel = .readWrite) -> Action {
        let status = record.effectiveStatus(at: level)
        let pending = pending(level) != nil && status == .notDetermined
        return .answer(waiters: waiters, status: status, pending: pending,
                       hint: status == .denied ? Self.resetHint(for: record.app, uid: record.uid, level: level) : nil)
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
    static func unique(_ names: [String]) -> [String] {
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }
    }
}
