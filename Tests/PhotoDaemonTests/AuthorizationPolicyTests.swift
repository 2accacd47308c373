import Foundation
import Testing
@testable import PhotoDaemon

@Suite struct AuthorizationPolicyTests {
    typealias F = AuthorizationFixtures

    private static let restrictive = AuthorizationPolicy(restricted: ["org.example.*"])

    @Test func aPolicyRestrictsAnAuthorizedApp() {
        var machine = F.machine(.authorized)
        let actions = machine.apply(policy: Self.restrictive)
        #expect(machine.record.status == .restricted)
        #expect(machine.record.statusBeforeRestriction == .authorized)
        #expect(actions == [
            .persist(machine.record),
            F.event(.decided, machine),
            .visibilityChanged(from: .all, to: .none),
        ])
    }

    @Test func theOwnerCannotDecideOrResetARestrictedApp() {
        var machine = F.machine(.authorized, policy: Self.restrictive)
        let before = machine.record
        #expect(machine.decide(.authorized, assets: [], groups: [], now: F.t1) == [.fail(.restricted(app: F.app))])
        #expect(machine.decide(.limited, assets: [], groups: [], now: F.t1) == [.fail(.restricted(app: F.app))])
        #expect(machine.reset(now: F.t1) == [.fail(.restricted(app: F.app))])
        #expect(machine.record == before)
    }

    @Test func restrictingAPendingAppAnswersItsWaiters() {
        var machine = F.pending(waiters: [1, 2])
        let actions = machine.apply(policy: Self.restrictive)
        #expect(!machine.record.pending)
        #expect(machine.waiters.isEmpty)
        #expect(actions == [
            .persist(machine.record),
            .answer(waiters: [1, 2], status: .restricted, pending: false, hint: nil),
            F.event(.decided, machine),
        ])
    }

    @Test func liftingTheRestrictionGivesBackWhatTheAppHad() {
        var machine = F.machine(.limited, policy: Self.restrictive)
        #expect(machine.record.status == .restricted)
        let actions = machine.apply(policy: AuthorizationPolicy())
        #expect(machine.record.status == .limited)
        #expect(machine.record.assets == ["a1"])
        #expect(machine.record.groups == ["Beach"])
        #expect(machine.record.statusBeforeRestriction == nil)
        #expect(actions == [
            .persist(machine.record),
            F.event(.decided, machine),
            .visibilityChanged(from: .none, to: .selection(assets: ["a1"], groups: ["Beach"])),
        ])
    }

    @Test func liftingARestrictionOfAnUndecidedAppLetsItAsk() {
        var machine = F.machine(policy: Self.restrictive)
        let actions = machine.apply(policy: AuthorizationPolicy())
        #expect(machine.record.status == .notDetermined)
        #expect(actions == [.persist(machine.record), F.event(.reset, machine)])
    }

    @Test func aRestrictedRecordWithoutItsEarlierStatusBecomesNotDetermined() {
        let record = AppAuthorization(app: F.app, uid: 1000, status: .restricted)
        let machine = AuthorizationMachine(record: record, policy: AuthorizationPolicy())
        #expect(machine.record.status == .notDetermined)
    }

    @Test func aStoredRecordIsHeldToTheCurrentPolicyAndLosesItsWaiters() {
        let stored = AppAuthorization(app: F.app, uid: 1000, status: .authorized, decidedAt: F.t0)
        let machine = AuthorizationMachine(record: stored, policy: Self.restrictive)
        #expect(machine.record.status == .restricted)
        #expect(machine.record.statusBeforeRestriction == .authorized)
        #expect(machine.record.decidedAt == F.t0)

        let pending = AppAuthorization(app: F.app, uid: 1000, requestedAt: F.t0, pending: true)
        #expect(!AuthorizationMachine(record: pending, policy: AuthorizationPolicy()).record.pending)
    }

    @Test func aPolicyThatDoesNotConcernTheAppChangesNothing() {
        var machine = F.machine(.authorized)
        #expect(machine.apply(policy: AuthorizationPolicy(restricted: ["org.other.*"])).isEmpty)
        var restricted = F.machine(policy: Self.restrictive)
        #expect(restricted.apply(policy: AuthorizationPolicy(restricted: [F.app])).isEmpty)
        #expect(restricted.record.status == .restricted)
    }

    @Test(arguments: [
        ("org.example.Viewer", "org.example.Viewer", true),
        ("org.example.Viewer", "org.example.ViewerPro", false),
        ("org.example.*", "org.example.Viewer", true),
        ("org.example.*", "org.examples", false),
        ("*", "anything at all", true),
        ("*.Viewer", "org.example.Viewer", true),
        ("*.Viewer", "org.example.Viewer2", false),
        ("/usr/bin/*", "/usr/bin/python3 /home/ann/show.py", true),
        ("/usr/*/python3 *", "/usr/local/bin/python3 /srv/x.py", true),
        ("a*b*c", "aXbYbZc", true),
        ("a*b*c", "aXcYb", false),
        ("org.?xample", "org.example", false),
        ("", "", true),
    ])
    func patterns(pattern: String, app: String, restricted: Bool) {
        #expect(AuthorizationPolicy(restricted: [pattern]).restricts(app) == restricted)
    }

    @Test func anyEntryRestricts() {
        let policy = AuthorizationPolicy(restricted: ["org.a", "org.b.*"])
        #expect(policy.restricts("org.a"))
        #expect(policy.restricts("org.b.c"))
        #expect(!policy.restricts("org.c"))
        #expect(!AuthorizationPolicy().restricts("org.a"))
    }
}
