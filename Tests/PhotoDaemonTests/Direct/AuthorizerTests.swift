import Foundation
import Logging
import PhotoAPI
import PhotoTestSupport
import Store
import Synchronization
import Testing
@testable import PhotoDaemon

/// The authorizer in-process over a real index: the owner's decide/reset/remove, requests answered
/// by a decision, what subscriptions are told, the config's policy, and what a restart keeps.
/// (Record caps and sizes are AuthorizerLimitsTests'.)
@Suite struct AuthorizerTests {
    /// An authorizer over a fresh index in its own folder, with what it logged and told subscriptions.
    final class Rig: Sendable {
        let dir: TemporaryDirectory
        let store: Store
        let log = LogRecorder()
        let seen = SeenLog()
        let authorizer: Authorizer

        /// A rig whose authorizer holds `policy`.
        init(policy: AuthorizationPolicy = AuthorizationPolicy()) async throws {
            dir = try TemporaryDirectory()
            store = try Store(path: dir.file("state/index.sqlite"))
            authorizer = try await Self.authorizer(store: store, policy: policy, log: log, seen: seen)
        }

        /// Another authorizer over `store`, as a restarted photod builds it.
        static func authorizer(store: Store, policy: AuthorizationPolicy, log: LogRecorder = LogRecorder(),
                               seen: SeenLog = SeenLog()) async throws -> Authorizer {
            try await Authorizer(store: store, policy: policy, logger: log.logger()) { app, visibility in
                seen.entries.withLock { $0.append("\(app) \(AuthorizerTests.text(visibility))") }
            }
        }

        /// The records the index holds, decoded, once every queued save has landed.
        func stored() async throws -> [AppAuthorization] {
            try await store.settled()
            return try await store.read { try $0.apps() }.map { try JSONDecoder().decode(AppAuthorization.self, from: $0.record) }
        }

        /// Runs `body` with a new rig and closes its index afterwards, also when `body` throws.
        static func with(policy: AuthorizationPolicy = AuthorizationPolicy(), _ body: (Rig) async throws -> Void)
            async throws {
            let rig = try await Rig(policy: policy)
            // Request timers run in the authorization service, as in photod's service group.
            let timers = Task { [authorizer = rig.authorizer] in try await AuthorizationService(authorizer: authorizer, changes: ChangeRequests(authorizer: authorizer, logger: Logger(label: "test")), picks: PickRequests(authorizer: authorizer, logger: Logger(label: "test"))).run() }
            defer { timers.cancel() }
            try await withClosing(rig, close: { await $0.store.close() }, body)
        }
    }

    /// What the authorizer told subscriptions, one "uid:app visibility" line per call.
    final class SeenLog: Sendable {
        let entries = Mutex<[String]>([])
        /// Every line so far.
        var all: [String] { entries.withLock { $0 } }
    }

    /// A visibility as short text: none, all, or the sorted selection.
    static func text(_ visibility: Visibility) -> String {
        switch visibility {
        case .none: "none"
        case .all: "all"
        case .selection(let assets, let groups, let fallback):
            "assets=\(assets.sorted()) groups=\(groups.sorted())" + (fallback ? " fallback" : "")
        }
    }

    /// An executable app of the test's own user (the user an owner's new-id decision is for).
    static func app(_ name: String, uid: UInt32 = getuid()) -> AppIdentity {
        AppIdentity(id: "exe:/usr/bin/\(name)", uid: uid, source: .executable, executable: "/usr/bin/\(name)")
    }

    /// Every answer a request stream gives until it finishes.
    static func answers(_ stream: AsyncStream<RequestAuthorizationReply>) async -> [RequestAuthorizationReply] {
        var replies: [RequestAuthorizationReply] = []
        for await reply in stream { replies.append(reply) }
        return replies
    }

    /// The kinds of the next `count` events on a watch.
    static func kinds(_ events: AsyncStream<AuthorizationEvent>, count: Int) async -> [AuthorizationEventKind] {
        var iterator = events.makeAsyncIterator()
        var kinds: [AuthorizationEventKind] = []
        while kinds.count < count, let event = await iterator.next() { kinds.append(event.kind) }
        return kinds
    }

    /// The last answer a request gets: `status`, nothing pending.
    static func answered(_ status: AuthorizationStatus) -> RequestAuthorizationReply {
        RequestAuthorizationReply(status: status, pending: false)
    }

    /// The first answer while the owner has not decided.
    static let waiting = RequestAuthorizationReply(status: .notDetermined, pending: true)

    @Test func anOwnersDecisionBeforeTheAppAsksAnswersItsRequestAtOnce() async throws {
        try await Rig.with { rig async throws in
            let viewer = Self.app("viewer")
            let decided = try await rig.authorizer.decide(viewer.id, status: .authorized, assets: [], groups: [])
            #expect(decided.status == .authorized && decided.uid == getuid() && decided.decidedAt != nil)
            let (_, answers) = try await rig.authorizer.request(viewer, reason: "to show photos", label: nil)
            #expect(await Self.answers(answers) == [Self.answered(.authorized)])
            #expect(rig.seen.all == ["\(AppKey(viewer).text) all"])
            #expect(rig.log.contains("owner decided"))
            #expect(try await rig.stored().map(\.status) == [.authorized])
        }
    }

    @Test func aPendingRequestIsAnsweredByTheOwnersDecision() async throws {
        try await Rig.with { rig async throws in
            let viewer = Self.app("viewer")
            let (_, events) = await rig.authorizer.watch(app: nil)
            let (_, answers) = try await rig.authorizer.request(viewer, reason: "to show photos", label: "Viewer")
            var replies = answers.makeAsyncIterator()
            #expect(await replies.next() == Self.waiting)
            let asked = await rig.authorizer.record(for: viewer)
            #expect(asked.pending && asked.reason == "to show photos" && asked.label == "Viewer" && asked.requestedAt != nil)
            #expect(try await rig.stored().map(\.pending) == [true])

            _ = try await rig.authorizer.decide("viewer", status: .limited, assets: ["a2", "a1", "a2"], groups: ["Beach"])
            #expect(await replies.next() == Self.answered(.limited))
            #expect(await replies.next() == nil, "the request ends with the decision")
            let record = await rig.authorizer.record(for: viewer)
            #expect(record.status == .limited && !record.pending)
            #expect(record.assets == ["a2", "a1"], "each asset once, in the owner's order")
            #expect(record.groups == ["Beach"])
            #expect(rig.seen.all == ["\(AppKey(viewer).text) assets=[\"a1\", \"a2\"] groups=[\"Beach\"]"])
            #expect(await Self.kinds(events, count: 2) == [.requested, .decided])
        }
    }

    @Test func aDecidedAppIsAnsweredWithoutTheOwnerHearingOrItsReasonChanging() async throws {
        try await Rig.with { rig async throws in
            let viewer = Self.app("viewer")
            _ = try await rig.authorizer.decide(viewer.id, status: .denied, assets: [], groups: [])
            let (_, events) = await rig.authorizer.watch(app: nil)
            let (_, answers) = try await rig.authorizer.request(viewer, reason: "please, again", label: "Forged")
            #expect(await Self.answers(answers) == [Self.answered(.denied)])
            let record = await rig.authorizer.record(for: viewer)
            #expect(record.status == .denied && record.reason == nil && record.label == nil && !record.pending)
            #expect(rig.seen.all.isEmpty, "denied shows nothing, as undecided did")
            // The next event is the reset below: the request itself told the owner nothing.
            _ = try await rig.authorizer.reset("viewer")
            #expect(await Self.kinds(events, count: 1) == [.reset])
        }
    }

    @Test func resetSendsTheAppBackToAskAndTakesAwayWhatItSaw() async throws {
        try await Rig.with { rig async throws in
            let viewer = Self.app("viewer")
            let limited = try await rig.authorizer.decide(viewer.id, status: .limited, assets: ["a1"], groups: [])
            let reset = try await rig.authorizer.reset("viewer")
            #expect(reset.status == .notDetermined && reset.assets.isEmpty && reset.groups.isEmpty)
            let decidedBefore = try #require(limited.decidedAt)
            #expect(try #require(reset.decidedAt) >= decidedBefore)
            #expect(rig.seen.all.last == "\(AppKey(viewer).text) none")
            #expect(rig.log.contains("owner reset the app"))
            #expect(try await rig.stored().map(\.status) == [.notDetermined])
            // Undecided again, it may ask, and the owner is asked.
            let (_, answers) = try await rig.authorizer.request(viewer, reason: "again", label: nil)
            var replies = answers.makeAsyncIterator()
            #expect(await replies.next() == Self.waiting)
        }
    }

    @Test func theOwnerCannotResetOrRemoveAnAppNeverSeenNorDecideAShortName() async throws {
        try await Rig.with { rig async throws in
            await #expect(throws: AuthorizationCallError.unknownApp("exe:/usr/bin/nobody")) {
                _ = try await rig.authorizer.reset("exe:/usr/bin/nobody")
            }
            await #expect(throws: AuthorizationCallError.unknownApp("exe:/usr/bin/nobody")) {
                _ = try await rig.authorizer.remove("exe:/usr/bin/nobody")
            }
            // Only a full id can name an app before it asks.
            await #expect(throws: AuthorizationCallError.unknownApp("nobody")) {
                _ = try await rig.authorizer.decide("nobody", status: .authorized, assets: [], groups: [])
            }
            #expect(await rig.authorizer.allRecords().isEmpty)
        }
    }

    @Test func aDecisionTheMachineRefusesChangesNothing() async throws {
        try await Rig.with { rig async throws in
            let refusals: [(AuthorizationStatus, [String], [String])] = [
                (.notDetermined, [], []), (.restricted, [], []), (.limited, [], []), (.authorized, ["a1"], []),
                (.limited, [""], []),
            ]
            for (status, assets, groups) in refusals {
                let error = await #expect(throws: AuthorizationCallError.self) {
                    _ = try await rig.authorizer.decide("exe:/usr/bin/new", status: status, assets: assets, groups: groups)
                }
                guard case .refused(.invalidDecision) = error else {
                    Issue.record("\(status) \(assets) was refused with \(String(describing: error))")
                    continue
                }
            }
            #expect(await rig.authorizer.allRecords().isEmpty, "a refused first decision takes no record")
            #expect(try await rig.stored().isEmpty)

            _ = try await rig.authorizer.decide("exe:/usr/bin/old", status: .authorized, assets: [], groups: [])
            await #expect(throws: AuthorizationCallError.self) {
                _ = try await rig.authorizer.decide("old", status: .limited, assets: [], groups: [])
            }
            #expect(await rig.authorizer.allRecords().map(\.status) == [.authorized])
            #expect(rig.seen.all.count == 1)
            #expect(rig.log.text.components(separatedBy: "owner decided").count == 2, "one decision logged")
        }
    }

    @Test func changingALimitedSelectionIsASelectionChange() async throws {
        try await Rig.with { rig async throws in
            let viewer = Self.app("viewer")
            let (_, events) = await rig.authorizer.watch(app: nil)
            _ = try await rig.authorizer.decide(viewer.id, status: .limited, assets: ["a1"], groups: [])
            _ = try await rig.authorizer.decide("viewer", status: .limited, assets: [], groups: ["Beach"])
            #expect(await Self.kinds(events, count: 2) == [.decided, .selectionChanged])
            let key = AppKey(viewer).text
            #expect(rig.seen.all == ["\(key) assets=[\"a1\"] groups=[]", "\(key) assets=[] groups=[\"Beach\"]"])
            #expect(try await rig.stored().map(\.groups) == [["Beach"]])
        }
    }

    @Test func theLastWaiterLeavingCancelsTheRequest() async throws {
        try await Rig.with { rig async throws in
            let viewer = Self.app("viewer")
            let (_, events) = await rig.authorizer.watch(app: nil)
            let (first, firstAnswers) = try await rig.authorizer.request(viewer, reason: "one", label: nil)
            let (second, secondAnswers) = try await rig.authorizer.request(viewer, reason: "two", label: nil)
            await rig.authorizer.cancel(app: AppKey(viewer), waiter: first)
            #expect(await Self.answers(firstAnswers) == [Self.waiting], "a cancelled caller's stream ends")
            #expect(await rig.authorizer.record(for: viewer).pending, "another caller still waits")
            await rig.authorizer.cancel(app: AppKey(viewer), waiter: second)
            #expect(await Self.answers(secondAnswers) == [Self.waiting])
            let record = await rig.authorizer.record(for: viewer)
            #expect(!record.pending && record.status == .notDetermined && record.reason == "two")
            #expect(await Self.kinds(events, count: 2) == [.requested, .cancelled])
        }
    }

    @Test func anUnansweredRequestEndsAtTheTimeout() async throws {
        try await Rig.with(policy: AuthorizationPolicy(requestTimeout: 0.2)) { rig async throws in
            let viewer = Self.app("viewer")
            let started = ContinuousClock.now
            let (_, answers) = try await rig.authorizer.request(viewer, reason: "r", label: nil)
            #expect(await Self.answers(answers) == [Self.waiting, Self.answered(.notDetermined)])
            #expect(ContinuousClock.now - started >= .milliseconds(150))
            #expect(await !rig.authorizer.record(for: viewer).pending)
            #expect(rig.log.contains("authorization request ended without an answer"))
        }
    }

    @Test func aRestrictingPolicyOverridesTheOwnerAndReleasingItRestoresTheDecisions() async throws {
        try await Rig.with { rig async throws in
            let viewer = Self.app("viewer")
            let editor = Self.app("editor")
            let asker = Self.app("asker")
            let outsider = AppIdentity(id: "app:org.example.Outside", uid: getuid(), source: .appUnit, executable: "/x")
            _ = try await rig.authorizer.decide(viewer.id, status: .authorized, assets: [], groups: [])
            _ = try await rig.authorizer.decide(editor.id, status: .limited, assets: ["a1"], groups: ["Beach"])
            _ = try await rig.authorizer.decide(outsider.id, status: .authorized, assets: [], groups: [])
            let (_, answers) = try await rig.authorizer.request(asker, reason: "r", label: nil)
            var replies = answers.makeAsyncIterator()
            #expect(await replies.next() == Self.waiting)
            let seenBefore = rig.seen.all.count

            await rig.authorizer.apply(policy: AuthorizationPolicy(restricted: ["exe:/usr/bin/*"]))
            #expect(await replies.next() == Self.answered(.restricted), "a waiting request ends restricted")
            #expect(await rig.authorizer.allRecords().map(\.status) == [.authorized, .restricted, .restricted, .restricted])
            #expect(Array(rig.seen.all.dropFirst(seenBefore)).sorted()
                == ["\(AppKey(editor).text) none", "\(AppKey(viewer).text) none"])
            #expect(rig.log.contains("permissions policy reloaded"))
            await #expect(throws: AuthorizationCallError.refused(.restricted(app: viewer.id))) {
                _ = try await rig.authorizer.decide("viewer", status: .denied, assets: [], groups: [])
            }
            await #expect(throws: AuthorizationCallError.refused(.restricted(app: editor.id))) {
                _ = try await rig.authorizer.reset("editor")
            }
            #expect(try await rig.stored().filter { $0.status == .restricted }.count == 3)

            await rig.authorizer.apply(policy: AuthorizationPolicy())
            #expect(await rig.authorizer.record(for: viewer).status == .authorized)
            let restored = await rig.authorizer.record(for: editor)
            #expect(restored.status == .limited && restored.assets == ["a1"] && restored.groups == ["Beach"])
            #expect(await rig.authorizer.record(for: asker).status == .notDetermined)
            #expect(rig.seen.all.suffix(2).sorted() == [
                "\(AppKey(editor).text) assets=[\"a1\"] groups=[\"Beach\"]", "\(AppKey(viewer).text) all"])
            // The same policy again changes nothing and says nothing.
            let logged = rig.log.text
            await rig.authorizer.apply(policy: AuthorizationPolicy())
            #expect(rig.log.text == logged)
        }
    }

    @Test func decisionsOutliveTheAuthorizerAndAWaitingRequestDoesNot() async throws {
        try await Rig.with { rig async throws in
            _ = try await rig.authorizer.decide("exe:/usr/bin/viewer", status: .limited, assets: ["a1"], groups: ["Sea"])
            _ = try await rig.authorizer.decide("exe:/usr/bin/editor", status: .denied, assets: [], groups: [],
                                                by: "exe:/usr/libexec/photod/photod-notify")
            _ = try await rig.authorizer.decide("exe:/usr/bin/gone", status: .authorized, assets: [], groups: [])
            _ = try await rig.authorizer.remove("gone")
            _ = try await rig.authorizer.request(Self.app("asker"), reason: "to print", label: "Printer")
            try await rig.store.settled()
            let before = await rig.authorizer.allRecords()
            #expect(before.map(\.app) == ["exe:/usr/bin/asker", "exe:/usr/bin/editor", "exe:/usr/bin/viewer"])

            let restarted = try await Rig.authorizer(store: rig.store, policy: AuthorizationPolicy())
            let after = await restarted.allRecords()
            #expect(after == before.map { record in
                var record = record
                record.pending = false
                return record
            }, "everything is kept but the request, whose caller was of the earlier run")
            #expect(try await rig.stored().allSatisfy { !$0.pending }, "the index agrees")
            #expect(await restarted.record(for: Self.app("viewer")).visibility
                == .selection(assets: ["a1"], groups: ["Sea"]))
            #expect(await restarted.record(for: Self.app("editor")).decidedBy == "exe:/usr/libexec/photod/photod-notify")
        }
    }

    @Test func aRestrictionMadeAtStartIsStoredAndLiftedByTheNextStart() async throws {
        try await Rig.with { rig async throws in
            let viewer = Self.app("viewer")
            _ = try await rig.authorizer.decide(viewer.id, status: .authorized, assets: [], groups: [])
            let restricting = AuthorizationPolicy(restricted: [viewer.id])
            let second = try await Rig.authorizer(store: rig.store, policy: restricting)
            #expect(await second.record(for: viewer).status == .restricted)
            let stored = try #require(try await rig.stored().first)
            #expect(stored.status == .restricted && stored.statusBeforeRestriction == .authorized)

            let third = try await Rig.authorizer(store: rig.store, policy: AuthorizationPolicy())
            #expect(await third.record(for: viewer).status == .authorized)
            #expect(try await rig.stored().map(\.status) == [.authorized])
        }
    }

    @Test func anUnreadableStoredRecordCountsAsUndecided() async throws {
        try await Rig.with { rig async throws in
            let viewer = Self.app("viewer")
            try await rig.store.write { try $0.saveApp(StoredApp(uid: viewer.uid, id: viewer.id, record: Data("{not json".utf8))) }
            _ = try await rig.authorizer.decide("exe:/usr/bin/editor", status: .authorized, assets: [], groups: [])
            let log = LogRecorder()
            let restarted = try await Rig.authorizer(store: rig.store, policy: AuthorizationPolicy(), log: log)
            #expect(await restarted.record(for: viewer).status == .notDetermined)
            #expect(await restarted.record(for: Self.app("editor")).status == .authorized)
            #expect(log.contains("ignoring an unreadable authorization record"))
        }
    }

    @Test func anAppsOwnWatchSeesOnlyItsOwnEventsUntilItEnds() async throws {
        try await Rig.with { rig async throws in
            let viewer = Self.app("viewer")
            let (id, events) = await rig.authorizer.watch(app: AppKey(viewer))
            _ = try await rig.authorizer.decide("exe:/usr/bin/editor", status: .authorized, assets: [], groups: [])
            _ = try await rig.authorizer.decide(viewer.id, status: .denied, assets: [], groups: [])
            await rig.authorizer.unwatch(id)
            var apps: [String] = []
            for await event in events { apps.append(event.app.app) }
            #expect(apps == [viewer.id])
        }
    }
}
