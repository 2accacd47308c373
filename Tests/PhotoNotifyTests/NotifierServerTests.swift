import PhotoAPI
import Testing
@testable import PhotoNotify

/// No server, a server that fails, photod going away, photod-notify stopping.
@Suite struct NotifierServerTests {
    let viewer = MachineFixture.app("exe:/usr/bin/eog")

    @Test func withoutAServerNothingIsSentUntilANewRequestFindsOne() {
        var machine = NotifierMachine(ownerUID: MachineFixture.owner)
        #expect(machine.start() == [.probeServer])
        let missing = machine.handle(.serverMissing(reason: "org.freedesktop.DBus.Error.ServiceUnknown"))
        let log = MachineFixture.logs(missing)
        #expect(log.count == 1)
        #expect(log.first?.message.contains("photoctl permissions prompt") == true)
        #expect(log.first?.message.contains("org.freedesktop.Notifications") == true)
        // Apps listed at start-up are remembered but not shown; the next request looks again.
        #expect(machine.handle(.appsListed([viewer])) == [.probeServer])
        #expect(machine.handle(.serverMissing(reason: "still none")).isEmpty)
        #expect(machine.handle(.authorization(.init(kind: .requested, app: viewer))) == [.probeServer])
        let found = machine.handle(.serverFound(MachineFixture.everything))
        #expect(MachineFixture.notified(found).count == 1)
    }

    @Test func aFailedNotifyStopsSendingAndIsLoggedOnce() {
        var fixture = MachineFixture()
        let produced = fixture.handle(.appsListed(NotifierFloodTests.apps(3)))
        let tags = produced.compactMap { if case .notify(let tag, _, _) = $0 { tag } else { nil } }
        #expect(tags.count == 3)
        var after: [NotifierAction] = []
        for tag in tags { after += fixture.handle(.notifyFailed(tag: tag, reason: "ServiceUnknown")) }
        #expect(MachineFixture.logs(after).count == 1)
        #expect(MachineFixture.notified(after).isEmpty)
        // A notification server that comes back shows every waiting request again.
        #expect(fixture.watch(.requested, MachineFixture.app("exe:/opt/new")) == [.probeServer])
        let shown = MachineFixture.notified(fixture.handle(.serverFound(MachineFixture.everything)))
        #expect(shown.count == 4)
        #expect(shown.last?.body == "1 more app is waiting: photoctl permissions prompt")
    }

    @Test func photodGoingAwayClosesEveryNotificationAndAReListShowsWhatStillWaits() {
        var fixture = MachineFixture()
        let ids = fixture.show(fixture.handle(.appsListed([viewer, MachineFixture.app("exe:/opt/other")])))
        #expect(Set(MachineFixture.closed(fixture.handle(.photodDisconnected))) == Set(ids))
        #expect(MachineFixture.notified(fixture.handle(.appsListed([viewer]))).count == 1)
    }

    @Test func aReListClosesWhatWasAnsweredMeanwhile() throws {
        var fixture = MachineFixture()
        let other = MachineFixture.app("exe:/opt/other")
        let ids = fixture.show(fixture.handle(.appsListed([viewer, other])))
        var answered = other
        answered.pending = false
        #expect(MachineFixture.closed(fixture.handle(.appsListed([viewer, answered]))) == [try #require(ids.last)])
    }

    @Test func stoppingClosesEverythingShown() {
        var fixture = MachineFixture()
        let ids = fixture.show(fixture.handle(.appsListed(NotifierFloodTests.apps(4))))
        #expect(Set(MachineFixture.closed(fixture.machine.stop())) == Set(ids))
    }

    /// A Notify still unanswered at the stop is closed when its answer comes, and nothing new is
    /// shown after the stop: a stop between the Notify and its answer left the notification on
    /// the desktop, its buttons answered by no one (NotifyTests saw it once in a full run).
    @Test func stoppingClosesANotifyAnsweredAfterTheStop() throws {
        var fixture = MachineFixture()
        let produced = fixture.handle(.appsListed(NotifierFloodTests.apps(2)))
        let tags = produced.compactMap { if case .notify(let tag, _, _) = $0 { tag } else { nil } }
        #expect(tags.count == 2)
        // The first is answered before the stop, the second after it.
        let first = try #require(tags.first), second = try #require(tags.last)
        #expect(fixture.handle(.notified(tag: first, id: 11, server: MachineFixture.server)).isEmpty)
        #expect(MachineFixture.closed(fixture.machine.stop()) == [11])
        #expect(fixture.machine.awaitsAnswersAtStop)
        #expect(fixture.machine.handle(.authorization(.init(kind: .requested, app: viewer))).isEmpty)
        #expect(fixture.machine.handle(.notified(tag: second, id: 12, server: MachineFixture.server)) == [.close(id: 12)])
        #expect(!fixture.machine.awaitsAnswersAtStop)
    }

    @Test func aServerWithoutActionsGetsTheCommandsInTheText() {
        var fixture = MachineFixture(capabilities: ServerCapabilities(actions: false, bodyMarkup: false))
        let content = MachineFixture.notified(fixture.watch(.requested, viewer)).first
        #expect(content?.actions.isEmpty == true)
        #expect(content?.body.contains("photoctl permissions prompt") == true)
        #expect(content?.body.contains("photoctl permissions allow exe:/usr/bin/eog") == true)
    }

    @Test func aServerFoundAgainShowsWithItsOwnCapabilities() {
        var fixture = MachineFixture(capabilities: ServerCapabilities(actions: false, bodyMarkup: false))
        fixture.show(fixture.watch(.requested, viewer))
        fixture.handle(.serverMissing(reason: "restarted"))
        fixture.watch(.requested, viewer)
        let updated = fixture.handle(.serverFound(MachineFixture.everything))
        #expect(MachineFixture.notified(updated).first?.actions.count == 3)
    }
}

/// A notification server that leaves the bus or is replaced.
@Suite struct NotifierServerChangeTests {
    let viewer = MachineFixture.app("exe:/usr/bin/eog")

    @Test func aNewServerIsAskedAndShownWhatTheOldOneHad() throws {
        var fixture = MachineFixture()
        fixture.show(fixture.watch(.requested, viewer))
        #expect(fixture.handle(.serverChanged(owner: ":1.42")) == [.probeServer])
        let shown = fixture.handle(.serverFound(MachineFixture.everything))
        #expect(MachineFixture.lastNotify(shown)?.replacing == 0, "the old id means nothing to the new server")
        #expect(MachineFixture.notified(shown).count == 1)
    }

    @Test func newsOfTheServerThatAlreadyShowedThemChangesNothing() {
        var fixture = MachineFixture()
        fixture.show(fixture.watch(.requested, viewer))
        fixture.handle(.serverChanged(owner: MachineFixture.server))
        #expect(MachineFixture.notified(fixture.handle(.serverFound(MachineFixture.everything))).isEmpty)
    }

    @Test func aServerLeavingIsLoggedAndTheNextRequestLooksAgain() {
        var fixture = MachineFixture()
        fixture.show(fixture.watch(.requested, viewer))
        let left = fixture.handle(.serverChanged(owner: ""))
        #expect(MachineFixture.logs(left).count == 1)
        #expect(MachineFixture.closed(left).isEmpty, "nothing to close on a server that is gone")
        #expect(fixture.watch(.requested, MachineFixture.app("exe:/opt/next")) == [.probeServer])
    }
}
