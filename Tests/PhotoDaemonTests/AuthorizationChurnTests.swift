import Foundation
import PhotoAPI
import Testing
@testable import PhotoDaemon

/// An app that asks and hangs up in a loop (issue 26, request churn): a few new requests at once,
/// then one per interval; past it, a clear refusal and no new prompt.
@Suite struct AuthorizationChurnTests {
    typealias F = AuthorizationFixtures

    @Test func theRequestAfterTheBurstIsRefusedAndStartsNothing() {
        var machine = F.machine()
        let burst = AuthorizationLimits.requestBurst
        for waiter in 1...UInt64(burst) {
            let actions = machine.request(reason: "r", label: nil, waiter: waiter, now: F.t0)
            #expect(actions.contains(F.event(.requested, machine)), "request \(waiter)")
            _ = machine.cancel(waiter: waiter)
        }
        let before = machine.record
        let refused = machine.request(reason: "r", label: nil, waiter: 99, now: F.t0)
        #expect(refused == [.fail(.tooManyRequests(app: before.app,
                                                   retryAfter: Int(AuthorizationLimits.requestInterval)))])
        #expect(machine.record == before)
        #expect(!machine.record.pending)
        #expect(machine.waiters.isEmpty)
        // One interval later, one more request is let through (and only one).
        let later = F.t0.addingTimeInterval(AuthorizationLimits.requestInterval)
        let again = machine.request(reason: "r", label: nil, waiter: 100, now: later)
        #expect(again.contains(F.event(.requested, machine)))
        _ = machine.cancel(waiter: 100)
        let beyond = machine.request(reason: "r", label: nil, waiter: 101, now: later)
        #expect(beyond == [.fail(.tooManyRequests(app: before.app, retryAfter: Int(AuthorizationLimits.requestInterval)))])
    }

    @Test func joiningAPendingRequestCostsNothing() {
        var machine = F.machine()
        for waiter in 1...UInt64(AuthorizationLimits.requestBurst * 4) {
            let actions = machine.request(reason: "r", label: nil, waiter: waiter, now: F.t0)
            #expect(!actions.contains { if case .fail = $0 { true } else { false } })
        }
        #expect(machine.waiters.count == AuthorizationLimits.requestBurst * 4)
    }

    @Test func aDecidedAppIsAnsweredHoweverOftenItAsks() {
        var machine = F.machine()
        _ = machine.decide(.denied, assets: [], groups: [], now: F.t0)
        for waiter in 1...UInt64(AuthorizationLimits.requestBurst * 3) {
            let actions = machine.request(reason: "r", label: nil, waiter: waiter, now: F.t0)
            #expect(actions.count == 1 && !actions.contains { if case .fail = $0 { true } else { false } })
        }
    }

    @Test func theBucketRefillsAtItsRateAndNeverBeyondItsCapacity() {
        var bucket = RequestBucket(capacity: 2, interval: 10)
        let quiet = F.t0.addingTimeInterval(1000)
        let times = [F.t0, F.t0, F.t0, F.t0.addingTimeInterval(4), F.t0.addingTimeInterval(10), quiet, quiet, quiet, F.t0]
        let waits = times.map { bucket.take(now: $0) }
        // A long quiet spell fills it to its capacity only; a clock set back earns nothing.
        #expect(waits == [nil, nil, 10, 6, nil, nil, nil, 10, 10])
    }
}
