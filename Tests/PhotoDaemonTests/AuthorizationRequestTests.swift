import PhotoAPI
import Foundation
import Testing
@testable import PhotoDaemon

@Suite struct AuthorizationRequestTests {
    typealias F = AuthorizationFixtures

    @Test func aFirstRequestPromptsTheOwnerAndAnswersPending() {
        var machine = F.machine()
        let actions = machine.request(reason: "to show your photos", label: "Viewer", waiter: 1, now: F.t0)
        let record = machine.record
        #expect(record.status == .notDetermined)
        #expect(record.pending)
        #expect(record.reason == "to show your photos")
        #expect(record.label == "Viewer")
        #expect(record.requestedAt == F.t0)
        #expect(machine.waiters == [1])
        #expect(actions == [
            .persist(record),
            F.answerPending([1]),
            F.event(.requested, machine),
            .scheduleTimeout(at: F.t0.addingTimeInterval(AuthorizationPolicy.defaultRequestTimeout)),
        ])
    }

    @Test func theTimeoutFollowsThePolicy() {
        var machine = F.machine(policy: AuthorizationPolicy(requestTimeout: 30))
        let actions = machine.request(reason: "r", label: nil, waiter: 1, now: F.t0)
        #expect(actions.last == .scheduleTimeout(at: F.t0.addingTimeInterval(30)))
    }

    @Test func aSecondRequestWhilePendingWaitsForTheSamePrompt() {
        var machine = F.pending(waiters: [1])
        let actions = machine.request(reason: "to print an album", label: "Viewer 2", waiter: 2, now: F.t1)
        #expect(machine.record.pending)
        #expect(machine.record.reason == "to print an album")
        #expect(machine.record.label == "Viewer 2")
        // The prompt's age and deadline stay those of the first request.
        #expect(machine.record.requestedAt == F.t0)
        #expect(machine.waiters == [1, 2])
        #expect(actions == [.persist(machine.record), F.answerPending([2])])
    }

    @Test func aRepeatedIdenticalRequestStoresNothing() {
        var machine = F.pending(waiters: [1])
        let actions = machine.request(reason: "to show your photos", label: nil, waiter: 2, now: F.t1)
        #expect(machine.record.label == "Viewer")
        #expect(actions == [F.answerPending([2])])
    }

    @Test func theSameWaiterAskingTwiceIsAnsweredOnce() {
        var machine = F.pending(waiters: [1])
        _ = machine.request(reason: "to show your photos", label: "Viewer", waiter: 1, now: F.t1)
        #expect(machine.waiters == [1])
    }

    @Test(arguments: [AuthorizationStatus.authorized, .limited])
    func aGrantedAppIsAnsweredAtOnceWithoutAPrompt(status: AuthorizationStatus) {
        var machine = F.machine(status)
        let before = machine.record
        let actions = machine.request(reason: "again", label: "Other", waiter: 9, now: F.t1)
        #expect(actions == [.answer(waiters: [9], status: status, pending: false, hint: nil)])
        #expect(machine.record == before)
    }

    @Test func aDeniedAppIsAnsweredAtOnceWithTheResetHint() {
        var machine = F.machine(.denied)
        let before = machine.record
        let actions = machine.request(reason: "please", label: nil, waiter: 9, now: F.t1)
        let hint = AuthorizationMachine.resetHint(for: F.app)
        #expect(hint.contains("photoctl permissions reset org.example.Viewer"))
        #expect(actions == [.answer(waiters: [9], status: .denied, pending: false, hint: hint)])
        #expect(machine.record == before)
    }

    @Test func aRestrictedAppIsAnsweredAtOnce() {
        var machine = F.machine(policy: AuthorizationPolicy(restricted: [F.app]))
        let before = machine.record
        let actions = machine.request(reason: "please", label: nil, waiter: 9, now: F.t1)
        #expect(actions == [.answer(waiters: [9], status: .restricted, pending: false, hint: nil)])
        #expect(machine.record == before)
    }

    @Test func theHintQuotesAnAppIdThatIsNotOneShellWord() {
        let script = AuthorizationMachine.resetHint(for: "/usr/bin/python3 /home/ann/it's.py")
        #expect(script.hasSuffix(#"photoctl permissions reset '/usr/bin/python3 /home/ann/it'\''s.py'"#))
        let plain = AuthorizationMachine.resetHint(for: "/usr/bin/gthumb")
        #expect(plain.hasSuffix("photoctl permissions reset /usr/bin/gthumb"))
        let otherUser = AuthorizationMachine.resetHint(for: "exe:/usr/bin/gthumb", uid: getuid() &+ 1)
        #expect(otherUser.hasSuffix("photoctl permissions reset exe:/usr/bin/gthumb --uid \(getuid() &+ 1)"))
    }
}
