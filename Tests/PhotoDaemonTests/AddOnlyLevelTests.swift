import PhotoAPI
import Foundation
import Testing
@testable import PhotoDaemon

/// PhotoKit's add-only level: asked, decided and reset apart from readWrite, never a window
/// into the library, and included in readWrite authorized or limited.
@Suite struct AddOnlyLevelTests {
    typealias F = AuthorizationFixtures

    @Test func anAddOnlyRequestPromptsApartFromReadWrite() {
        var machine = F.machine()
        let actions = machine.request(reason: "to save memes", label: "Memes", level: .addOnly, waiter: 1, now: F.t0)
        #expect(machine.record.add.pending)
        #expect(machine.record.add.reason == "to save memes")
        #expect(machine.record.add.requestedAt == F.t0)
        #expect(!machine.record.pending)
        #expect(machine.record.reason == nil)
        #expect(actions == [
            .persist(machine.record),
            F.answerPending([1]),
            .notify(AuthorizationEvent(kind: .requested, app: machine.record, level: .addOnly)),
            .scheduleTimeout(at: F.t0.addingTimeInterval(AuthorizationPolicy.defaultRequestTimeout)),
        ])
    }

    @Test func authorizingAddingAnswersItsWaitersAndShowsNothing() {
        var machine = F.machine()
        _ = machine.request(reason: "r", label: nil, level: .addOnly, waiter: 1, now: F.t0)
        let actions = machine.decideAdding(.authorized, by: "exe:/usr/bin/photoctl", now: F.t1)
        #expect(machine.record.add.status == .authorized)
        #expect(!machine.record.add.pending)
        #expect(machine.record.status == .notDetermined)
        #expect(machine.record.visibility == .none)
        #expect(machine.record.mayAdd)
        #expect(actions == [
            .persist(machine.record),
            .answer(waiters: [1], status: .authorized, pending: false, hint: nil),
            .notify(AuthorizationEvent(kind: .decided, app: machine.record, level: .addOnly)),
        ])
    }

    @Test func adding_isAuthorizedOrDenied_neverLimited() {
        var machine = F.machine()
        let actions = machine.decideAdding(.limited, now: F.t1)
        #expect(actions.count == 1)
        guard case .fail(.invalidDecision) = actions.first else {
            Issue.record("expected invalidDecision, got \(actions)")
            return
        }
        #expect(machine.record.add == AddOnlyGrant())
    }

    @Test func aDeniedAdderCanStillAskToReadAndTheLevelsStayApart() {
        var machine = F.machine()
        _ = machine.decideAdding(.denied, now: F.t0)
        let again = machine.request(reason: "r", label: nil, level: .addOnly, waiter: 1, now: F.t1)
        guard case .answer(_, .denied, false, let hint?) = again.first else {
            Issue.record("a denied level is answered at once, got \(again)")
            return
        }
        #expect(hint.contains("--level add"))
        let read = machine.request(reason: "r", label: nil, waiter: 2, now: F.t1)
        #expect(read.contains(F.answerPending([2])))
        #expect(machine.record.add.status == .denied)
    }

    @Test(arguments: [AuthorizationStatus.authorized, .limited])
    func readWriteIncludesAdding(status: AuthorizationStatus) {
        var machine = F.machine(status)
        #expect(machine.record.mayAdd)
        #expect(machine.record.effectiveStatus(at: .addOnly) == .authorized)
        let actions = machine.request(reason: "r", label: nil, level: .addOnly, waiter: 1, now: F.t0)
        #expect(actions == [.answer(waiters: [1], status: .authorized, pending: false, hint: nil)])
        #expect(!machine.record.add.pending)
    }

    @Test func grantingReadWriteAnswersAWaitingAddOnlyRequest() {
        var machine = F.machine()
        _ = machine.request(reason: "r", label: nil, level: .addOnly, waiter: 7, now: F.t0)
        let actions = machine.decide(.authorized, assets: [], groups: [], now: F.t1)
        #expect(actions.contains(.answer(waiters: [7], status: .authorized, pending: false, hint: nil)))
        #expect(!machine.record.add.pending)
        #expect(machine.waiters.isEmpty)
    }

    @Test func deniedReadWriteLeavesAnAddOnlyGrantAlone() {
        var machine = F.machine()
        _ = machine.decideAdding(.authorized, now: F.t0)
        _ = machine.decide(.denied, assets: [], groups: [], now: F.t1)
        #expect(machine.record.mayAdd)
        #expect(machine.record.visibility == .none)
    }

    @Test func resetAddingLeavesReadWriteAsItWas() {
        var machine = F.machine(.limited)
        _ = machine.decideAdding(.denied, now: F.t0)
        let actions = machine.resetAdding(by: "exe:/usr/bin/photoctl", now: F.t1)
        #expect(machine.record.add.status == .notDetermined)
        #expect(machine.record.status == .limited)
        #expect(actions.contains(.notify(AuthorizationEvent(kind: .reset, app: machine.record, level: .addOnly))))
    }

    @Test func eachLevelsRequestTimesOutAndIsCancelledOnItsOwn() {
        var machine = F.machine(policy: AuthorizationPolicy(requestTimeout: 30))
        _ = machine.request(reason: "r", label: nil, waiter: 1, now: F.t0)
        _ = machine.request(reason: "a", label: nil, level: .addOnly, waiter: 2, now: F.t1)
        let cancelled = machine.cancel(waiter: 2)
        #expect(cancelled.contains(.notify(AuthorizationEvent(kind: .cancelled, app: machine.record, level: .addOnly))))
        #expect(machine.record.pending)
        #expect(!machine.record.add.pending)
        _ = machine.request(reason: "a", label: nil, level: .addOnly, waiter: 3, now: F.t1)
        let expired = machine.timeout(deadline: F.t0.addingTimeInterval(30))
        #expect(expired.contains(.answer(waiters: [1], status: .notDetermined, pending: false, hint: nil)))
        #expect(!machine.record.pending)
        #expect(machine.record.add.pending)
    }

    @Test func thePolicyRestrictsBothLevelsAndGivesBothBack() {
        var machine = F.machine()
        _ = machine.decideAdding(.authorized, now: F.t0)
        _ = machine.request(reason: "a", label: nil, waiter: 1, now: F.t0)
        let restricting = machine.apply(policy: AuthorizationPolicy(restricted: [F.app]))
        #expect(machine.record.add.status == .restricted)
        #expect(!machine.record.mayAdd)
        #expect(restricting.contains(.answer(waiters: [1], status: .restricted, pending: false, hint: nil)))
        _ = machine.apply(policy: AuthorizationPolicy())
        #expect(machine.record.add.status == .authorized)
    }

    @Test func aLimitedAppsImportsJoinItsSelectionWhileTheRecordFits() {
        var machine = F.machine(.limited)
        let before = machine.record.visibility
        let actions = machine.added(["n1", "a1"], fits: { _ in true })
        #expect(machine.record.assets == ["a1", "n1"])
        #expect(actions.contains(.notify(AuthorizationEvent(kind: .selectionChanged, app: machine.record))))
        #expect(actions.contains(.visibilityChanged(from: before, to: machine.record.visibility)))
        #expect(machine.added(["n2"], fits: { _ in false }).isEmpty)
        #expect(machine.record.assets == ["a1", "n1"])
    }

    @Test func anAuthorizedOrAddOnlyAppsImportsChangeNoSelection() {
        var authorized = F.machine(.authorized)
        #expect(authorized.added(["n1"], fits: { _ in true }).isEmpty)
        var adder = F.machine()
        _ = adder.decideAdding(.authorized, now: F.t0)
        #expect(adder.added(["n1"], fits: { _ in true }).isEmpty)
        #expect(adder.record.assets.isEmpty)
    }

    @Test func aRecordStoredBeforeLevelsReadsAsNeverAskedToAdd() throws {
        let old = #"{"app":"org.example.Viewer","uid":1000,"status":"authorized","assets":[],"groups":[],"pending":false}"#
        let record = try JSONDecoder().decode(AppAuthorization.self, from: Data(old.utf8))
        #expect(record.addOnly == nil)
        #expect(record.add.status == .notDetermined)
        #expect(record.mayAdd)
        #expect(record.wire.addOnly?.status == .notDetermined)
    }
}
