import LogLines
import Testing

@testable import Varlink

@Suite("Connection admission rules")
struct AdmissionTests {
    private func admission(max: Int = 6, perUID: Int = 2, reserved: Int = 2, unidentified: Int = 100) -> ConnectionAdmission {
        ConnectionAdmission(.init(maxConnections: max, maxPerUID: perUID, ownerReserved: reserved, maxUnidentified: unidentified))
    }

    /// Identifies and admits one connection, as the server does.
    private func connect(_ admission: ConnectionAdmission, uid: UInt32?, owner: Bool = false) -> Result<ConnectionAdmission.Slot, ConnectionAdmission.Refusal> {
        if let refusal = admission.beginIdentification() { return .failure(refusal) }
        return admission.admit(uid: uid, owner: owner)
    }

    @Test("one uid holds at most its share; another uid still gets in")
    func perUID() throws {
        let rules = admission()
        _ = try connect(rules, uid: 1000).get()
        let second = try connect(rules, uid: 1000).get()
        #expect(connect(rules, uid: 1000) == .failure(.perUID(uid: 1000, limit: 2)))
        #expect(throws: Never.self) { try connect(rules, uid: 1001).get() }
        // Unknown credentials are one more bucket, not a way around the rule.
        _ = try connect(rules, uid: nil).get()
        #expect(connect(rules, uid: nil) != .failure(.perUID(uid: nil, limit: 2)))
        rules.release(second)
        #expect(throws: Never.self) { try connect(rules, uid: 1000).get() }
    }

    @Test("the reserved slots are the owner's alone, and the owner is not held to the per-uid share")
    func ownerReserve() throws {
        let rules = admission(max: 6, perUID: 10, reserved: 2)
        for uid in UInt32(1)...4 {
            _ = try connect(rules, uid: uid).get()
        }
        #expect(connect(rules, uid: 5) == .failure(.reservedForOwner(reserved: 2)))
        let owner = try connect(rules, uid: 1, owner: true).get()
        _ = try connect(rules, uid: 1, owner: true).get()
        #expect(rules.served == 6)
        #expect(connect(rules, uid: 1, owner: true) == .failure(.full(limit: 6)))
        rules.release(owner)
        #expect(connect(rules, uid: 5) == .failure(.reservedForOwner(reserved: 2)))
        #expect(throws: Never.self) { try connect(rules, uid: 1, owner: true).get() }

        let single = admission(max: 3, perUID: 1, reserved: 0)
        for _ in 0..<3 {
            _ = try connect(single, uid: 7, owner: true).get()
        }
        #expect(single.served == 3)
    }

    @Test("connections waiting to be identified are capped, and identifying frees the place")
    func identificationBacklog() {
        let rules = admission(unidentified: 2)
        #expect(rules.beginIdentification() == nil)
        #expect(rules.beginIdentification() == nil)
        #expect(rules.beginIdentification() == .identificationBacklog(limit: 2))
        _ = rules.admit(uid: 1, owner: false)
        #expect(rules.beginIdentification() == nil)
    }

    @Test("a peer that cannot be the owner is refused before identification once its uid is at its share")
    func refusedBeforeIdentification() throws {
        let rules = admission(max: 6, perUID: 1, reserved: 2, unidentified: 2)
        #expect(rules.beginIdentification() == nil)
        #expect(rules.refuseNonOwner(uid: 5) == nil)
        _ = try rules.admit(uid: 5, owner: false).get()
        #expect(rules.beginIdentification() == nil)
        #expect(rules.refuseNonOwner(uid: 5) == .perUID(uid: 5, limit: 1))
        // The early refusal ended that identification: two more may wait.
        #expect(rules.beginIdentification() == nil)
        #expect(rules.beginIdentification() == nil)
        #expect(rules.served == 1)
    }

    @Test("four users at their share leave room for a fifth; one already over its fair share is the one refused")
    func fairShare() throws {
        // The daemon's defaults: 64 slots, 4 for the owner, 16 per uid.
        let rules = admission(max: 64, perUID: 16, reserved: 4)
        var held: [UInt32: Int] = [:]
        // Four users (each holding Watch streams) take what they can, in turns.
        for _ in 0..<16 {
            for uid in UInt32(1001)...1004 {
                if case .success = connect(rules, uid: uid) { held[uid, default: 0] += 1 }
            }
        }
        #expect(held.values.reduce(0, +) == rules.sharedSlots - rules.newcomerHeadroom)
        #expect(rules.newcomerHeadroom == 7)
        // A fifth user still gets in, and the next ones too, one slot each.
        let fifth = try connect(rules, uid: 1005).get()
        #expect(connect(rules, uid: 1005) == .failure(.fairShare(uid: 1005, held: 1)))
        // The users over their fair share are refused, not newcomers.
        #expect(connect(rules, uid: 1001) == .failure(.fairShare(uid: 1001, held: held[1001] ?? 0)))
        for uid in UInt32(1006)...1011 {
            #expect(throws: Never.self) { try connect(rules, uid: uid).get() }
        }
        // The owner's reserve is untouched.
        for _ in 0..<4 { #expect(throws: Never.self) { try connect(rules, uid: 1000, owner: true).get() } }
        rules.release(fifth)
        #expect(throws: Never.self) { try connect(rules, uid: 1012).get() }
    }

    @Test("refusals say what happened")
    func refusalText() {
        #expect("\(ConnectionAdmission.Refusal.perUID(uid: 1000, limit: 16))" == "uid 1000 already holds its 16 connections")
        #expect("\(ConnectionAdmission.Refusal.reservedForOwner(reserved: 4))".contains("reserved for the owner"))
        #expect("\(ConnectionAdmission.Refusal.fairShare(uid: 1001, held: 14))".contains("kept for users holding none"))
    }
}

@Suite("Log budget")
struct LogBudgetTests {
    @Test("past the budget, lines are counted, and the first line of the next window reports them")
    func budget() {
        let budget = LogBudget(linesPerWindow: 3, window: .seconds(10))
        let start = ContinuousClock.now
        let first = (0..<5).map { budget.spend(at: start + .seconds($0)) }
        #expect(first == [.log(suppressed: 0), .log(suppressed: 0), .log(suppressed: 0), .suppress, .suppress])
        #expect(budget.spend(at: start + .seconds(9)) == .suppress)
        #expect(budget.spend(at: start + .seconds(10)) == .log(suppressed: 3))
        #expect(budget.spend(at: start + .seconds(11)) == .log(suppressed: 0))
    }
}
