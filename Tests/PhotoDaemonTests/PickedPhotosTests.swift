import PhotoAPI
import Foundation
import Testing
@testable import PhotoDaemon

/// Picked photos in the app's record: kept in order, each once, capped, apart from a limited
/// selection, cleared by Unpick and Reset, and outside the ListApps budget.
@Suite struct PickedPhotosTests {
    typealias F = AuthorizationFixtures

    @Test func picksFollowEachOtherInOrderEachOnceAndStayOutOfTheSelection() {
        var machine = F.machine()
        #expect(machine.pick(["b", "a", "b"], maximum: 10) == [.persist(machine.record)])
        _ = machine.pick(["c", "a"], maximum: 10)
        #expect(machine.record.pickedIDs == ["b", "a", "c"])
        #expect(machine.record.visibility == .none, "picks never widen what the app may list")
        _ = machine.decide(.limited, assets: ["x"], groups: [], now: F.t1)
        #expect(machine.record.pickedIDs == ["b", "a", "c"] && machine.record.assets == ["x"])
        #expect(machine.record.wire.picked == 3)
    }

    @Test func morePicksThanTheCapAreRefusedWhole() {
        var machine = F.machine()
        _ = machine.pick(["a", "b"], maximum: 3)
        let actions = machine.pick(["c", "d"], maximum: 3)
        guard case .fail(.invalidDecision) = actions.first else {
            Issue.record("expected a refusal, got \(actions)")
            return
        }
        #expect(machine.record.pickedIDs == ["a", "b"])
    }

    @Test func unpickAndResetTakePicksBack() {
        var machine = F.machine()
        _ = machine.pick(["a", "b", "c"], maximum: 10)
        let actions = machine.unpick(["b", "zz"])
        #expect(machine.record.pickedIDs == ["a", "c"])
        #expect(actions == [.persist(machine.record),
                            .notify(AuthorizationEvent(kind: .selectionChanged, app: machine.record))])
        #expect(machine.unpick(["zz"]) == [], "nothing picked, nothing changes")
        _ = machine.reset(now: F.t1)
        #expect(machine.record.picked == nil && machine.record.wire.picked == nil)
        _ = machine.pick(["a"], maximum: 10)
        _ = machine.unpick(nil)
        #expect(machine.record.pickedIDs.isEmpty)
    }

    @Test func theRecordBudgetCountsPicksNotTheirIDs() {
        var record = AppAuthorization(app: "exe:/usr/bin/viewer", uid: 1000)
        record.pickedIDs = (0..<PickedPhotos.maximumPerApp).map { String(format: "%016d", $0) }
        #expect(AuthorizationLimits.fits(record))
        #expect(AuthorizationLimits.wireBytes(record) < 1024)
    }
}
