import PhotoAPI
import Testing
@testable import PhotoNotify

/// Many apps asking at once: a few notifications, one summary of the rest, kept current.
@Suite struct NotifierFloodTests {
    static func apps(_ count: Int) -> [App] {
        (1...count).map { MachineFixture.app("exe:/opt/app\($0)") }
    }

    @Test func threeRequestsAreShownAndOneSummaryCountsTheRest() {
        var fixture = MachineFixture()
        let produced = fixture.handle(.appsListed(Self.apps(5)))
        let contents = MachineFixture.notified(produced)
        #expect(contents.count == 4)
        #expect(contents.prefix(3).allSatisfy { $0.summary == NotificationText.summary })
        #expect(contents.last?.body == "2 more apps are waiting: photoctl permissions prompt")
        #expect(contents.last?.actions.isEmpty == true)
    }

    @Test func anAnsweredRequestMakesRoomForTheNextAndTheSummaryFollowsTheCount() throws {
        var fixture = MachineFixture()
        let apps = Self.apps(5)
        let ids = fixture.show(fixture.handle(.appsListed(apps)))
        #expect(ids == [1, 2, 3, 4])

        // One answered: the fourth app is shown, the summary now counts one, in place.
        let first = fixture.watch(.decided, apps[0])
        #expect(MachineFixture.closed(first) == [1])
        let next = first.compactMap { if case .notify(_, let replacing, let content) = $0 { (replacing, content) } else { nil } }
        #expect(next.count == 2)
        #expect(next.first?.0 == 0)
        #expect(next.first?.1.body.contains("/opt/app4") == true)
        #expect(next.last?.0 == 4)
        #expect(next.last?.1.body == "1 more app is waiting: photoctl permissions prompt")
        fixture.show(first, firstID: 5)

        // Another answered: the last app is shown and the summary, with nothing left, is closed.
        let second = fixture.watch(.cancelled, apps[1])
        #expect(Set(MachineFixture.closed(second)) == [2, 4])
        #expect(MachineFixture.notified(second).count == 1)
    }

    @Test func aThousandRequestsStillMakeFourNotifications() {
        var fixture = MachineFixture()
        let produced = fixture.handle(.appsListed(Self.apps(1000)))
        #expect(MachineFixture.notified(produced).count == 4)
        #expect(MachineFixture.notified(produced).last?.body == "997 more apps are waiting: photoctl permissions prompt")
    }

    @Test func aClosedSummaryStaysClosedUntilTheCountChanges() throws {
        var fixture = MachineFixture()
        let ids = fixture.show(fixture.handle(.appsListed(Self.apps(5))))
        let summary = try #require(ids.last)
        #expect(MachineFixture.notified(fixture.handle(.notificationClosed(id: summary, reason: 2,
                                                                           sender: MachineFixture.server))).isEmpty)
        let more = fixture.watch(.requested, MachineFixture.app("exe:/opt/app6"))
        #expect(MachineFixture.notified(more).map(\.body) == ["3 more apps are waiting: photoctl permissions prompt"])
    }
}
