import PhotoAPI
import Foundation
import Testing
@testable import PhotoDaemon

@Suite struct AuthorizationDecisionTests {
    typealias F = AuthorizationFixtures

    @Test func authorizingAnswersEveryWaiterAndShowsTheWholeLibrary() {
        var machine = F.pending(waiters: [1, 2])
        let actions = machine.decide(.authorized, assets: [], groups: [], now: F.t1)
        #expect(machine.record.status == .authorized)
        #expect(!machine.record.pending)
        #expect(machine.record.decidedAt == F.t1)
        #expect(machine.waiters.isEmpty)
        #expect(actions == [
            .persist(machine.record),
            .answer(waiters: [1, 2], status: .authorized, pending: false, hint: nil),
            F.event(.decided, machine),
            .visibilityChanged(from: .none, to: .all),
        ])
    }

    @Test func limitingAnswersWithTheSelection() {
        var machine = F.pending(waiters: [1])
        let actions = machine.decide(.limited, assets: ["a1", "a2", "a1"], groups: ["Beach"], now: F.t1)
        #expect(machine.record.status == .limited)
        #expect(machine.record.assets == ["a1", "a2"])
        #expect(machine.record.groups == ["Beach"])
        #expect(actions == [
            .persist(machine.record),
            .answer(waiters: [1], status: .limited, pending: false, hint: nil),
            F.event(.decided, machine),
            .visibilityChanged(from: .none, to: .selection(assets: ["a1", "a2"], groups: ["Beach"])),
        ])
    }

    @Test func denyingAnswersWithTheHintAndShowsNothingNew() {
        var machine = F.pending(waiters: [1])
        let actions = machine.decide(.denied, assets: [], groups: [], now: F.t1)
        #expect(machine.record.status == .denied)
        // Nothing was visible before and nothing is now: subscriptions have nothing to learn.
        #expect(actions == [
            .persist(machine.record),
            .answer(waiters: [1], status: .denied, pending: false,
                    hint: AuthorizationMachine.resetHint(for: F.app)),
            F.event(.decided, machine),
        ])
    }

    @Test func theOwnerMayDecideBeforeAnyRequest() {
        var machine = F.machine()
        let actions = machine.decide(.authorized, assets: [], groups: [], now: F.t1)
        #expect(actions == [.persist(machine.record), F.event(.decided, machine),
                            .visibilityChanged(from: .none, to: .all)])
    }

    @Test func limitedWithoutASelectionIsRefused() {
        var machine = F.pending(waiters: [1])
        let before = machine.record
        let actions = machine.decide(.limited, assets: [], groups: [], now: F.t1)
        #expect(actions == [.fail(.invalidDecision(reason: "limited needs at least one asset or group"))])
        #expect(machine.record == before)
        #expect(machine.waiters == [1])
    }

    @Test(arguments: [AuthorizationStatus.notDetermined, .restricted])
    func onlyAuthorizedLimitedOrDeniedAreDecisions(status: AuthorizationStatus) {
        var machine = F.pending(waiters: [1])
        let before = machine.record
        let actions = machine.decide(status, assets: ["a1"], groups: [], now: F.t1)
        guard case .fail(.invalidDecision(let reason)) = actions.first, actions.count == 1 else {
            Issue.record("expected invalidDecision, got \(actions)")
            return
        }
        #expect(reason.contains(status.rawValue))
        #expect(machine.record == before)
    }

    @Test(arguments: [AuthorizationStatus.authorized, .denied])
    func aSelectionGoesWithLimitedOnly(status: AuthorizationStatus) {
        var machine = F.machine()
        let actions = machine.decide(status, assets: ["a1"], groups: [], now: F.t1)
        #expect(actions == [.fail(.invalidDecision(reason: "assets and groups go with limited only, not with \(status.rawValue)"))])
        #expect(machine.record.status == .notDetermined)
    }

    @Test func anEmptyNameIsRefused() {
        var machine = F.machine()
        let actions = machine.decide(.limited, assets: [""], groups: [], now: F.t1)
        #expect(actions == [.fail(.invalidDecision(reason: "an asset id or group name is empty"))])
    }

    @Test func aNewSelectionReplacesTheOldOne() {
        var machine = F.machine(.limited)
        let actions = machine.decide(.limited, assets: ["a2"], groups: [], now: F.t1)
        #expect(machine.record.assets == ["a2"])
        #expect(machine.record.groups.isEmpty)
        #expect(actions == [
            .persist(machine.record),
            F.event(.selectionChanged, machine),
            .visibilityChanged(from: .selection(assets: ["a1"], groups: ["Beach"]),
                               to: .selection(assets: ["a2"], groups: [])),
        ])
    }

    @Test func leavingLimitedClearsTheSelection() {
        var machine = F.machine(.limited)
        let actions = machine.decide(.authorized, assets: [], groups: [], now: F.t1)
        #expect(machine.record.assets.isEmpty)
        #expect(machine.record.groups.isEmpty)
        #expect(actions == [
            .persist(machine.record),
            F.event(.decided, machine),
            .visibilityChanged(from: .selection(assets: ["a1"], groups: ["Beach"]), to: .all),
        ])
    }

    @Test func aDecidedAppMayBeDecidedAgain() {
        var machine = F.machine(.denied)
        let actions = machine.decide(.authorized, assets: [], groups: [], now: F.t1)
        #expect(machine.record.status == .authorized)
        #expect(actions.contains(.visibilityChanged(from: .none, to: .all)))
    }
}
