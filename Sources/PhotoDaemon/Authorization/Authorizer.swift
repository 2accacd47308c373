import Foundation
import Logging
import PhotoAPI
import Store

/// Keeps every app's authorization: runs each app's `AuthorizationMachine`, performs its
/// actions (store, answer waiting requests, tell watchers, tell subscriptions, arm timers), and
/// answers what an app may see.
actor Authorizer {
    private var machines: [String: AuthorizationMachine] = [:]
    private var policy: AuthorizationPolicy
    private let store: Store
    private let visibilityChanged: @Sendable (String, Visibility) -> Void
    private let logger: Logger
    private var nextID: UInt64 = 1
    private var waiters: [UInt64: AsyncStream<RequestAuthorizationReply>.Continuation] = [:]
    private var watchers: [UInt64: (app: String?, continuation: AsyncStream<AuthorizationEvent>.Continuation)] = [:]

    /// Loads the stored records and holds them to `policy`; `visibilityChanged` is told when
    /// what an app sees changes (its subscriptions adjust).
    init(store: Store, policy: AuthorizationPolicy, logger: Logger,
         visibilityChanged: @escaping @Sendable (String, Visibility) -> Void) throws {
        self.store = store
        self.policy = policy
        self.logger = logger
        self.visibilityChanged = visibilityChanged
        let decoder = JSONDecoder()
        for stored in try store.apps() {
            guard let record = try? decoder.decode(AppAuthorization.self, from: stored.record) else {
                // A record this version cannot read is treated as never decided, never as allowed.
                logger.warning("ignoring an unreadable authorization record; the app starts notDetermined",
                               metadata: ["app": "\(stored.id)"])
                continue
            }
            let machine = AuthorizationMachine(record: record, policy: policy)
            machines[record.app] = machine
            if machine.record != record { try Self.save(machine.record, to: store) }
        }
    }

    // MARK: What apps see

    /// The app's record, created notDetermined (and stored) on first contact.
    func record(for identity: AppIdentity) -> AppAuthorization {
        machine(for: identity).record
    }

    /// Every app known, by id.
    func allRecords() -> [AppAuthorization] {
        machines.keys.sorted().compactMap { machines[$0]?.record }
    }

    // MARK: Requests

    /// Starts a request; the stream yields the answers (first `pending` while the owner
    /// decides) and finishes after the final one. Pass the returned id to `cancel` when the
    /// caller goes away.
    func request(_ identity: AppIdentity, reason: String, label: String?)
        -> (waiter: UInt64, answers: AsyncStream<RequestAuthorizationReply>) {
        _ = machine(for: identity)
        let id = takeID()
        let (stream, continuation) = AsyncStream.makeStream(of: RequestAuthorizationReply.self)
        waiters[id] = continuation
        run(identity.id) { $0.request(reason: reason, label: label, waiter: id, now: Date()) }
        logger.notice("authorization requested", metadata: ["app": "\(identity.id)", "reason": "\(reason)"])
        return (id, stream)
    }

    /// A waiting caller went away; the last one leaving cancels the request.
    func cancel(app: String, waiter: UInt64) {
        waiters.removeValue(forKey: waiter)?.finish()
        run(app) { $0.cancel(waiter: waiter) }
    }

    // MARK: The owner's calls

    /// Records the owner's decision for the app named by `query` (full id or unambiguous part).
    func decide(_ query: String, status: AuthorizationStatus, assets: [String], groups: [String])
        throws(AuthorizationCallError) -> AppAuthorization {
        let app = try find(query, allowNew: true)
        try perform(app, failing: true) { $0.decide(status, assets: assets, groups: groups, now: Date()) }
        logger.notice("owner decided", metadata: [
            "app": "\(app)", "status": "\(status.rawValue)",
            "assets": "\(assets.count)", "groups": "\(groups.joined(separator: ","))"])
        return machines[app]?.record ?? AppAuthorization(app: app, uid: getuid())
    }

    /// Sends the app named by `query` back to notDetermined.
    func reset(_ query: String) throws(AuthorizationCallError) -> AppAuthorization {
        let app = try find(query, allowNew: false)
        try perform(app, failing: true) { $0.reset(now: Date()) }
        logger.notice("owner reset the app; it may ask again", metadata: ["app": "\(app)"])
        return machines[app]?.record ?? AppAuthorization(app: app, uid: getuid())
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
    func watch(app: String?) -> (id: UInt64, events: AsyncStream<AuthorizationEvent>) {
        let id = takeID()
        let (stream, continuation) = AsyncStream.makeStream(of: AuthorizationEvent.self, bufferingPolicy: .bufferingNewest(256))
        watchers[id] = (app, continuation)
        return (id, stream)
    }

    /// Ends a watch.
    func unwatch(_ id: UInt64) {
        watchers.removeValue(forKey: id)?.continuation.finish()
    }

    // MARK: Machinery

    private func takeID() -> UInt64 {
        defer { nextID += 1 }
        return nextID
    }

    private func machine(for identity: AppIdentity) -> AuthorizationMachine {
        if let machine = machines[identity.id] { return machine }
        let machine = AuthorizationMachine(record: AppAuthorization(app: identity.id, uid: identity.uid), policy: policy)
        machines[identity.id] = machine
        persist(machine.record)
        logger.info("new app seen", metadata: ["app": "\(identity.id)", "status": "\(machine.record.status.rawValue)"])
        return machine
    }

    /// The app id an owner means. A full id of an app never seen is accepted for a decision,
    /// so the owner can decide before the app first asks.
    private func find(_ query: String, allowNew: Bool) throws(AuthorizationCallError) -> String {
        switch AppMatcher.match(query, among: Array(machines.keys)) {
        case .success(let app):
            return app
        case .failure(.unknown):
            let wellFormed = ["app:", "exe:/", "script:/", "module:/"].contains { query.hasPrefix($0) }
            guard allowNew && wellFormed else { throw .unknownApp(query) }
            machines[query] = AuthorizationMachine(record: AppAuthorization(app: query, uid: getuid()), policy: policy)
            return query
        case .failure(.ambiguous(_, let candidates)):
            throw .ambiguous(query, candidates: candidates)
        }
    }

    /// Runs one transition of an app's machine and performs its actions.
    private func perform(_ app: String, failing: Bool,
                         _ transition: (inout AuthorizationMachine) -> [AuthorizationMachine.Action]) throws(AuthorizationCallError) {
        guard var machine = machines[app] else { return }
        let actions = transition(&machine)
        machines[app] = machine
        for action in actions {
            switch action {
            case .fail(let failure):
                if failing { throw .refused(failure) }
            case .persist(let record):
                persist(record)
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
                for (_, watcher) in watchers where watcher.app == nil || watcher.app == event.app.app {
                    watcher.continuation.yield(event)
                }
            case .visibilityChanged(_, let to):
                visibilityChanged(app, to)
            case .scheduleTimeout(let deadline):
                Task { [weak self] in
                    try? await Task.sleep(for: .seconds(max(0, deadline.timeIntervalSinceNow)))
                    await self?.expire(app, deadline: deadline)
                }
            }
        }
    }

    /// Variant of `perform` for transitions whose failures are only logged.
    private func run(_ app: String, _ transition: (inout AuthorizationMachine) -> [AuthorizationMachine.Action]) {
        do {
            try perform(app, failing: false, transition)
        } catch {
            logger.error("authorization transition failed", metadata: ["app": "\(app)", "error": "\(error)"])
        }
    }

    private func expire(_ app: String, deadline: Date) {
        run(app) { $0.timeout(deadline: deadline) }
        if machines[app]?.record.pending == false {
            logger.info("authorization request ended without an answer", metadata: ["app": "\(app)"])
        }
    }

    private func persist(_ record: AppAuthorization) {
        do {
            try Self.save(record, to: store)
        } catch {
            // The decision still holds in memory; it is lost only if photod stops before the next save.
            logger.error("cannot store an authorization record", metadata: ["app": "\(record.app)", "error": "\(error)"])
        }
    }

    private static func save(_ record: AppAuthorization, to store: Store) throws {
        try store.saveApp(StoredApp(id: record.app, record: try JSONEncoder().encode(record)))
    }
}

/// Why the owner's Decide or Reset call was refused.
enum AuthorizationCallError: Error, Sendable, Equatable {
    case unknownApp(String)
    case ambiguous(String, candidates: [String])
    case refused(AuthorizationFailure)
}
