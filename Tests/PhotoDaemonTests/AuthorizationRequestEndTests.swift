import Foundation
import Testing
@testable import PhotoDaemon

/// How a request ends other than by a decision: reset, timeout, the caller leaving.
@Suite struct AuthorizationRequestEndTests {
    typealias F = AuthorizationFixtures

    private static let deadline = F.t0.addingTimeInterval(AuthorizationPolicy.defaultRequestTimeout)

    @Test func resetSendsALimitedAppBackToNotDetermined() {
        var machine = F.machine(.limited)
        let actions = machine.reset(now: F.t1)
        #expect(machine.record.status == .notDetermined)
        #expect(machine.record.assets.isEmpty)
        #expect(machine.record.groups.isEmpty)
        #expect(!machine.record.pending)
        #expect(machine.record.decidedAt == F.t1)
        #expect(actions == [
            .persist(machine.record),
            F.event(.reset, machine),
            .visibilityChanged(from: .selection(assets: ["a1"], groups: ["Beach"]), to: .none),
        ])
    }

    @Test func afterAResetADeniedAppMayAskAgain() {
        var machine = F.machine(.denied)
        _ = machine.reset(now: F.t1)
        let actions = machine.request(reason: "please", label: nil, waiter: 3, now: F.t2)
        #expect(actions.contains(F.event(.requested, machine)))
        #expect(actions.contains(F.answerPending([3])))
    }

    @Test func resetWhilePendingAnswersTheWaiters() {
        var machine = F.pending(waiters: [1, 2])
        let actions = machine.reset(now: F.t1)
        #expect(!machine.record.pending)
        #expect(actions == [
            .persist(machine.record),
            .answer(waiters: [1, 2], status: .notDetermined, pending: false, hint: nil),
            F.event(.reset, machine),
        ])
    }

    @Test func aTimeoutCancelsTheRequest() {
        var machine = F.pending(waiters: [1, 2])
        let actions = machine.timeout(deadline: Self.deadline)
        #expect(machine.record.status == .notDetermined)
        #expect(!machine.record.pending)
        #expect(machine.waiters.isEmpty)
        #expect(actions == [
            .persist(machine.record),
            .answer(waiters: [1, 2], status: .notDetermined, pending: false, hint: nil),
            F.event(.cancelled, machine),
        ])
    }

    @Test func aTimeoutAfterTheDecisionDoesNothing() {
        var machine = F.pending(waiters: [1])
        _ = machine.decide(.denied, assets: [], groups: [], now: F.t1)
        let before = machine.record
        #expect(machine.timeout(deadline: Self.deadline).isEmpty)
        #expect(machine.record == before)
    }

    @Test func aTimerFromAnEarlierRequestLeavesALaterOneAlone() {
        var machine = F.pending(waiters: [1])
        _ = machine.reset(now: F.t1)
        let actions = machine.request(reason: "again", label: nil, waiter: 2, now: F.t2)
        #expect(machine.timeout(deadline: Self.deadline).isEmpty)
        #expect(machine.record.pending)
        guard case .scheduleTimeout(let later) = actions.last else {
            Issue.record("the new request armed no timer: \(actions)")
            return
        }
        #expect(machine.timeout(deadline: later).contains(F.event(.cancelled, machine)))
        #expect(!machine.record.pending)
    }

    @Test func theOnlyWaiterLeavingCancelsTheRequest() {
        var machine = F.pending(waiters: [1])
        let actions = machine.cancel(waiter: 1)
        #expect(machine.record.status == .notDetermined)
        #expect(!machine.record.pending)
        #expect(actions == [.persist(machine.record), F.event(.cancelled, machine)])
    }

    @Test func oneOfTwoWaitersLeavingOnlyRemovesIt() {
        var machine = F.pending(waiters: [1, 2])
        let before = machine.record
        #expect(machine.cancel(waiter: 1).isEmpty)
        #expect(machine.record == before)
        #expect(machine.waiters == [2])
        let actions = machine.decide(.authorized, assets: [], groups: [], now: F.t1)
        #expect(actions.contains(.answer(waiters: [2], status: .authorized, pending: false, hint: nil)))
        // The last one leaving is what cancels.
        var other = F.pending(waiters: [1, 2])
        _ = other.cancel(waiter: 2)
        #expect(other.cancel(waiter: 1) == [.persist(other.record), F.event(.cancelled, other)])
    }

    @Test func aWaiterThatIsNotWaitingChangesNothing() {
        var machine = F.pending(waiters: [1])
        #expect(machine.cancel(waiter: 7).isEmpty)
        #expect(machine.record.pending)
        var decided = F.machine(.authorized)
        #expect(decided.cancel(waiter: 1).isEmpty)
    }
}
