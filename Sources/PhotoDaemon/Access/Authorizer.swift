#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import LogLines
import Logging
import PhotoAPI
import Store

/// Keeps every app's authorization: runs each app's `AuthorizationMachine`, performs its
/// actions (store, answer waiting requests, tell watchers, tell subscriptions, arm timers), and
/// answers what an app may see.
actor Authorizer {
    private var machines: [AppKey: AuthorizationMachine] = [:]
    private var policy: AuthorizationPolicy
    private let store: Store
    private let visibilityChanged: @Sendable (String, Visibility) -> Void
    private let logger: Logger
    private var nextID: UInt64 = 1
    private var waiters: [UInt64: AsyncStream<RequestAuthorizationReply>.Continuation] = [:]
    private var watchers: [UInt64: (app: AppKey?, continuation: AsyncStream<AuthorizationEvent>.Continuation)] = [:]
    /// photod's own parts that follow every event (`ChangeRequests`), apart from the clients'
    /// watchers, which the log counts.
    private var followers: [UInt64: AsyncStream<AuthorizationEvent>.Continuation] = [:]
    /// How many app records are kept at most (`AuthorizationLimits.maximumApps`).
    private let maximumApps: Int
    /// Set while apps are being turned away for the record cap, so the owner is told once.
    private var capReported = false
    /// Lines apps can cause, capped per app and kind.
    private var logBudgets = AppLogBudgets()
    /// Pending requests' timers; `AuthorizationService` runs them.
    nonisolated let deadlines = RequestDeadlines<AppKey>()

    /// Loads the stored records and holds them to `policy`; `visibilityChanged` is told (with
    /// `AppKey.text`) when what an app sees changes (its subscriptions adjust).
    init(store: Store, policy: AuthorizationPolicy, logger: Logger, maximumApps: Int = AuthorizationLimits.maximumApps,
         visibilityChanged: @escaping @Sendable (String, Visibility) -> Void) async throws {
        self.store = store
        self.maximumApps = maximumApps
        self.policy = policy
        self.logger = logger
        self.visibilityChanged = visibilityChanged
        let decoder = JSONDecoder()
        for stored in try await store.read({ try $0.apps() }) {
            guard let decoded = try? decoder.decode(AppAuthorization.self, from: stored.record) else {
                // A record this version cannot read is treated as never decided, never as allowed.
                logger.warning("ignoring an unreadable authorization record; the app starts notDetermined",
                               metadata: ["app": "\(stored.id)", "uid": "\(stored.uid)"])
                continue
            }
            // The row's key is the truth: records from before migration 5 carry no reliable uid.
            var record = decoded
            record.uid = stored.uid
            record.app = stored.id
            if !AuthorizationLimits.fits(record) {
                // Stored by a version without limits: what the app wrote goes, the decision stays.
                record.reason = nil
                record.label = nil
                logger.warning("dropped an oversized reason and label from a stored app record",
                               metadata: ["app": "\(stored.id)", "uid": "\(stored.uid)"])
            }
            let machine = AuthorizationMachine(record: record, policy: policy)
            machines[record.key] = machine
            if machine.record != decoded { try await store.write { try $0.saveApp(try Self.stored(machine.record)) } }
        }
        machines = try await Self.forgetUndecided(in: machines, beyond: maximumApps, store: store, logger: logger)
    }

    /// Deletes undecided records (notDetermined, nothing chosen) beyond `limit`, oldest request
    /// first: a version without the cap kept every app that ever connected, and such a record
    /// says no more than having none. Decisions are never dropped.
    private static func forgetUndecided(in loaded: [AppKey: AuthorizationMachine], beyond limit: Int, store: Store,
                                        logger: Logger) async throws -> [AppKey: AuthorizationMachine] {
        var machines = loaded
        let excess = machines.count - limit
        guard excess > 0 else { return machines }
        // Picked photos are the owner's choice: a record holding them is kept like a decision.
        let undecided = machines.values.map(\.record).filter { $0.status == .notDetermined && $0.pickedIDs.isEmpty }
            .sorted { ($0.requestedAt ?? .distantPast, $0.key) < ($1.requestedAt ?? .distantPast, $1.key) }
        for record in undecided.prefix(excess) {
            try await store.write { try $0.deleteApp(uid: record.uid, id: record.app) }
            machines[record.key] = nil
        }
        logger.warning("forgot undecided app records beyond the cap", metadata: [
            "forgotten": "\(min(excess, undecided.count))", "kept": "\(machines.count)", "cap": "\(limit)"])
        return machines
    }

    // MARK: What apps see

    /// The app's record; an app never seen is notDetermined (or restricted) without a record
    /// being kept, so only asking takes one of the limited record slots.
    func record(for identity: AppIdentity) -> AppAuthorization {
        record(of: AppKey(identity))
    }

    /// The record kept under `key`, or what an app never seen would have.
    func record(of key: AppKey) -> AppAuthorization {
        machines[key]?.record ?? newMachine(for: key).record
    }

    /// Every app known, by uid and id.
    func allRecords() -> [AppAuthorization] {
        machines.keys.sorted().compactMap { machines[$0]?.record }
    }

    // MARK: Requests

    /// Starts a request; the stream yields the answers (first `pending` while the owner
    /// decides) and finishes after the final one. Pass the returned id to `cancel` when the
    /// caller goes away. Refused when a new app finds no record slot free, when the record
    /// with this reason and label would not fit its budget, or when the app has started more
    /// requests than its `RequestBucket` allows.
    /// `required`: the levels the app marked required in a request with needs, kept with its record.
    func request(_ identity: AppIdentity, reason: String, label: String?, level: AccessLevel = .readWrite,
                 required: [AccessLevel]? = nil)
        async throws(AuthorizationCallError) -> (waiter: UInt64, answers: AsyncStream<RequestAuthorizationReply>) {
        let key = AppKey(identity)
        var trial = machines[key]?.record ?? AppAuthorization(app: identity.id, uid: identity.uid)
        switch level {
        case .readWrite: trial.reason = reason
        case .addOnly: trial.add.reason = reason
        }
        if let label { trial.label = label }
        guard AuthorizationLimits.fits(trial) else { throw .tooLarge(parameter: "reason") }
        if machines[key] == nil {
            try makeRoom(for: key)
            let machine = newMachine(for: key)
            machines[key] = machine
            persist(machine.record, backUp: false)
            logBudgets.budget(.newApp, for: key).log(logger, .info, "new app seen", metadata: [
                "app": "\(identity.id)", "uid": "\(identity.uid)"])
        }
        // Before the request, so the owner's `requested` event already says what is required.
        if let required { run(key) { $0.require(required) } }
        let id = takeID()
        let (stream, continuation) = AsyncStream.makeStream(of: RequestAuthorizationReply.self)
        waiters[id] = continuation
        do {
            try perform(key, failing: true) {
                $0.request(reason: reason, label: label, level: level, waiter: id, now: Date())
            }
        } catch {
            waiters.removeValue(forKey: id)?.finish()
            if case .refused(.tooManyRequests) = error {
                logBudgets.budget(.refused, for: key).log(logger, .notice, "too many authorization requests; refused",
                                                          metadata: ["app": "\(identity.id)", "uid": "\(identity.uid)"])
            }
            throw error
        }
        // The reason itself is the owner's to read in the prompt; the log says only how long it
        // was, so no app can fill the journal through it.
        logBudgets.budget(.requested, for: key).log(logger, .notice, "authorization requested", metadata: [
            "app": "\(identity.id)", "uid": "\(identity.uid)", "level": "\(level.rawValue)",
            "reason_bytes": "\(reason.utf8.count)"])
        await settle()
        return (id, stream)
    }

    /// A waiting caller went away; the last one leaving cancels the request.
    func cancel(app: AppKey, waiter: UInt64) {
        waiters.removeValue(forKey: waiter)?.finish()
        run(app) { $0.cancel(waiter: waiter) }
    }

    // MARK: The owner's calls

    /// The record of the app named by `query` (of user `uid` when given).
    func app(_ query: String, uid: UInt32? = nil) throws(AuthorizationCallError) -> AppAuthorization {
        let key = try find(query, uid: uid, allowNew: false)
        guard let record = machines[key]?.record else { throw .unknownApp(query) }
        return record
    }

    /// Records the owner's decision for the app named by `query` (of user `uid` when given),
    /// made through the owner's client `by`; `fallback` adds the fallback group to a limited
    /// selection. Allowing an app with a warning (`AppWarning`) needs `confirmed`.
    func decide(_ query: String, uid: UInt32? = nil, status: AuthorizationStatus, assets: [String], groups: [String],
                fallback: Bool = false, confirmed: Bool = false, level: AccessLevel = .readWrite, by: String? = nil)
        async throws(AuthorizationCallError) -> AppAuthorization {
        let key = try find(query, uid: uid, allowNew: true)
        if level == .addOnly, !assets.isEmpty || !groups.isEmpty || fallback {
            throw .refused(.invalidDecision(reason: "adding photos has no selection: assets and groups go with limited only"))
        }
        if status.grantsAccess && !confirmed, let warning = AppWarning.text(for: key.id) {
            throw .confirmationRequired(app: key.id, warning: warning)
        }
        let isNew = machines[key] == nil
        var trial = machines[key]?.record ?? AppAuthorization(app: key.id, uid: key.uid)
        trial.assets = assets
        trial.groups = groups
        trial.fallback = fallback ? true : nil
        trial.decidedBy = by
        guard AuthorizationLimits.fits(trial) else {
            throw .refused(.invalidDecision(reason: """
                the selection is too large to keep (\(AuthorizationLimits.wireBytes(trial)) bytes; a record holds \
                at most \(AuthorizationLimits.maximumRecordBytes)): choose groups rather than single photos
                """))
        }
        if isNew {
            // The owner decides before the app first asks: the app takes a record slot now.
            try makeRoom(for: key)
            machines[key] = newMachine(for: key)
        }
        do {
            try perform(key, failing: true) { machine in
                switch level {
                case .readWrite:
                    machine.decide(status, assets: assets, groups: groups, fallback: fallback, by: by, now: Date())
                case .addOnly:
                    machine.decideAdding(status, by: by, now: Date())
                }
            }
        } catch {
            if isNew { machines[key] = nil }
            throw error
        }
        logger.notice("owner decided", metadata: [
            "app": "\(key.id)", "uid": "\(key.uid)", "status": "\(status.rawValue)", "level": "\(level.rawValue)",
            "assets": "\(assets.count)", "groups": "\(groups.count)", "fallback": "\(fallback)", "by": "\(by ?? "-")",
            "confirmed": "\(confirmed)"])
        let record = machines[key]?.record ?? AppAuthorization(app: key.id, uid: key.uid)
        await settle()
        return record
    }

    /// Sends the app named by `query` back to notDetermined, through the owner's client `by`.
    func reset(_ query: String, uid: UInt32? = nil, level: AccessLevel = .readWrite, by: String? = nil)
        async throws(AuthorizationCallError) -> AppAuthorization {
        let key = try find(query, uid: uid, allowNew: false)
        try perform(key, failing: true) { machine in
            switch level {
            case .readWrite: machine.reset(by: by, now: Date())
            case .addOnly: machine.resetAdding(by: by, now: Date())
            }
        }
        logger.notice("owner reset the app; it may ask again", metadata: [
            "app": "\(key.id)", "uid": "\(key.uid)", "level": "\(level.rawValue)", "by": "\(by ?? "-")"])
        let record = machines[key]?.record ?? AppAuthorization(app: key.id, uid: key.uid)
        await settle()
        return record
    }

    /// Photos the app added (`Import`): a limited app's selection takes them in, and its
    /// subscriptions and watchers hear of it, before its import is answered.
    func added(_ assets: [String], by identity: AppIdentity) async {
        run(AppKey(identity)) { $0.added(assets, fits: AuthorizationLimits.fits) }
        await settle()
    }

    /// Forgets the app named by `query` entirely: a waiting request ends notDetermined, its
    /// subscriptions lose what it saw, and its record slot is free. Returns the record as it was.
    func remove(_ query: String, uid: UInt32? = nil) async throws(AuthorizationCallError) -> AppAuthorization {
        let key = try find(query, uid: uid, allowNew: false)
        guard machines[key] != nil else { throw .unknownApp(query) }
        do {
            try await store.write { try $0.deleteApp(uid: key.uid, id: key.id) }
        } catch {
            logger.error("cannot delete an app record", metadata: ["app": "\(key.id)", "error": "\(error)"])
            throw .refused(.invalidDecision(reason: "the index could not delete the record: \(error)"))
        }
        // A call during the wait may have changed this app and queued its save: read it again,
        // and delete once more behind that save, so the index agrees with memory.
        guard let machine = machines.removeValue(forKey: key) else { throw .unknownApp(query) }
        store.enqueueDeleteApp(uid: key.uid, id: key.id) { [logger] result in
            if case .failure(let error) = result {
                logger.error("cannot delete an app record", metadata: ["app": "\(key.id)", "error": "\(error)"])
            }
        }
        for id in machine.waiters {
            waiters.removeValue(forKey: id).map { continuation in
                continuation.yield(RequestAuthorizationReply(status: .notDetermined, pending: false))
                continuation.finish()
            }
        }
        var removed = machine.record
        removed.pending = false
        if removed.visibility != .none { visibilityChanged(key.text, .none) }
        removed.add.pending = false
        notify(AuthorizationEvent(kind: .removed, app: removed))
        if machines.count < maximumApps { capReported = false }
        logBudgets.forget(key)
        logger.notice("owner removed the app", metadata: ["app": "\(key.id)", "uid": "\(key.uid)"])
        return removed
    }

    /// The config was reloaded: every app is held to the new policy (restricted, or released
    /// back to what it had), and new requests wait the new timeout.
    func apply(policy: AuthorizationPolicy) {
        guard policy != self.policy else { return }
        self.policy = policy
        for app in machines.keys.sorted() {
            run(app) { $0.apply(policy: policy) }
        }
        logger.notice("permissions policy reloaded", metadata: [
            "restricted": "\(policy.restricted.joined(separator: ","))", "request_timeout": "\(Int(policy.requestTimeout))"])
    }

    // MARK: Watching

    /// Events from now on: all of them for the owner (`app` nil), else the app's own.
    func watch(app: AppKey?) -> (id: UInt64, events: AsyncStream<AuthorizationEvent>) {
        let id = takeID()
        let (stream, continuation) = AsyncStream.makeStream(of: AuthorizationEvent.self, bufferingPolicy: .bufferingNewest(256))
        watchers[id] = (app, continuation)
        // Events from here on reach it: a test waits for this line before it acts.
        logger.debug("permissions watch started", metadata: ["app": "\(app?.id ?? "owner")", "watchers": "\(watchers.count)"])
        return (id, stream)
    }

    /// Ends a watch (or a follow).
    func unwatch(_ id: UInt64) {
        watchers.removeValue(forKey: id)?.continuation.finish()
        followers.removeValue(forKey: id)?.finish()
    }

    /// Every event from now on, for a part of photod; end it with `unwatch`.
    func follow() -> (id: UInt64, events: AsyncStream<AuthorizationEvent>) {
        let id = takeID()
        // Bounded like a client's watch: a follower that fell behind loses the oldest events, and
        // an allowed change is checked against the app's access again before it is written.
        let (stream, continuation) = AsyncStream.makeStream(of: AuthorizationEvent.self, bufferingPolicy: .bufferingNewest(1024))
        followers[id] = continuation
        return (id, stream)
    }

    // MARK: Machinery

    private func takeID() -> UInt64 {
        defer { nextID += 1 }
        return nextID
    }

    /// The machine of an app never seen: notDetermined, or what the policy makes of it.
    private func newMachine(for key: AppKey) -> AuthorizationMachine {
        AuthorizationMachine(record: AppAuthorization(app: key.id, uid: key.uid), policy: policy)
    }

    /// Refuses a new app when the records are at their cap, telling the owner once.
    private func makeRoom(for key: AppKey) throws(AuthorizationCallError) {
        guard machines.count >= maximumApps else { return }
        if !capReported {
            capReported = true
            logger.warning("""
                photod keeps \(maximumApps) app records and is turning new apps away; \
                remove apps you no longer use with: photoctl permissions remove APP
                """, metadata: ["app": "\(key.id)", "uid": "\(key.uid)"])
        }
        throw .tooManyApps(limit: maximumApps)
    }

    /// The app an owner means. A full id of an app never seen is accepted for a decision (for
    /// the daemon's own user unless `uid` says otherwise), so the owner can decide before the
    /// app first asks.
    private func find(_ query: String, uid: UInt32?, allowNew: Bool) throws(AuthorizationCallError) -> AppKey {
        switch AppMatcher.match(query, uid: uid, among: Array(machines.keys)) {
        case .success(let key):
            return key
        case .failure(.unknown):
            let wellFormed = ["app:", "exe:/", "script:/", "module:/"].contains { query.hasPrefix($0) }
            guard allowNew && wellFormed else { throw .unknownApp(query) }
            return AppKey(uid: uid ?? getuid(), id: query)
        case .failure(.ambiguous(_, let candidates)):
            throw .ambiguous(query, candidates: candidates)
        }
    }

    /// Runs one transition of an app's machine and performs its actions.
    private func perform(_ app: AppKey, failing: Bool,
                         _ transition: (inout AuthorizationMachine) -> [AuthorizationMachine.Action]) throws(AuthorizationCallError) {
        guard var machine = machines[app] else { return }
        let before = machine.record
        let actions = transition(&machine)
        machines[app] = machine
        for action in actions {
            switch action {
            case .fail(let failure):
                if failing { throw .refused(failure) }
            case .persist(let record):
                persist(record, backUp: !record.sameDecision(as: before))
            case .answer(let ids, let status, let pending, _):
                for id in ids {
                    guard let continuation = waiters[id] else { continue }
                    continuation.yield(RequestAuthorizationReply(status: status, pending: pending))
                    if !pending {
                        continuation.finish()
                        waiters[id] = nil
                    }
                }
            case .notify(let event):
                notify(event)
            case .visibilityChanged(_, let to):
                visibilityChanged(app.text, to)
            case .scheduleTimeout(let deadline):
                deadlines.schedule(app, at: deadline)
            }
        }
    }

    /// Variant of `perform` for transitions whose failures are only logged.
    private func run(_ app: AppKey, _ transition: (inout AuthorizationMachine) -> [AuthorizationMachine.Action]) {
        do {
            try perform(app, failing: false, transition)
        } catch {
            logger.error("authorization transition failed", metadata: ["app": "\(app.id)", "error": "\(error)"])
        }
    }

    /// Runs a transition from outside this file (picks) on the app under `key`, first making
    /// its record when `creating` and it has none (a new app takes a record slot, as asking
    /// does); returns the record afterwards, once stored.
    func transition(_ key: AppKey, creating: Bool = false,
                    _ body: @Sendable (inout AuthorizationMachine) -> [AuthorizationMachine.Action])
        async throws(AuthorizationCallError) -> AppAuthorization {
        if machines[key] == nil {
            guard creating else { throw .unknownApp(key.id) }
            try makeRoom(for: key)
            let machine = newMachine(for: key)
            machines[key] = machine
            persist(machine.record, backUp: false)
        }
        try perform(key, failing: true, body)
        await settle()
        return record(of: key)
    }

    /// Tells the owner's watchers and the app's own of an event from outside the machines (a
    /// change the app asked for).
    func announce(_ event: AuthorizationEvent) {
        notify(event)
    }

    /// How long a request waits for the owner before it ends unanswered.
    var requestTimeout: TimeInterval { policy.requestTimeout }

    /// Sends an event to the owner's watchers and to the app's own.
    private func notify(_ event: AuthorizationEvent) {
        for (_, watcher) in watchers where watcher.app == nil || watcher.app == event.app.key {
            watcher.continuation.yield(event)
        }
        for follower in followers.values { follower.yield(event) }
    }

    /// Ends `app`'s request if it is still pending at `deadline`.
    func expire(_ app: AppKey, deadline: Date) {
        run(app) { $0.timeout(deadline: deadline) }
        if machines[app]?.record.pending == false {
            logBudgets.budget(.ended, for: app).log(logger, .info, "authorization request ended without an answer",
                                                    metadata: ["app": "\(app.id)"])
        }
    }

    /// Queues the record's save without suspending, so saves reach the index in the order the
    /// machine decided them; the owner's calls wait for them (`settle`) before they answer.
    /// `backUp`: the decision changed, so the apps backup must follow (`Store.enqueueSaveApp`).
    private func persist(_ record: AppAuthorization, backUp: Bool) {
        let logger = self.logger
        let app = record.app
        do {
            store.enqueueSaveApp(try Self.stored(record), backUp: backUp) { result in
                if case .failure(let error) = result {
                    // The decision still holds in memory; it is lost only if photod stops before the next save.
                    logger.error("cannot store an authorization record", metadata: ["app": "\(app)", "error": "\(error)"])
                }
            }
        } catch {
            logger.error("cannot encode an authorization record", metadata: ["app": "\(app)", "error": "\(error)"])
        }
    }

    /// Waits until every save queued so far is durable (or has failed, which is logged).
    private func settle() async {
        try? await store.settled()
    }

    static func stored(_ record: AppAuthorization) throws -> StoredApp {
        StoredApp(uid: record.uid, id: record.app, record: try JSONEncoder().encode(record))
    }
}
