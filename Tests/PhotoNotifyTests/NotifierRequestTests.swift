import PhotoAPI
import Testing
@testable import PhotoNotify

/// One request from asking to answered: its notification, its buttons, and who may press them.
@Suite struct NotifierRequestTests {
    let viewer = MachineFixture.app("script:/usr/bin/python3:/home/ann/viewer.py")

    @Test func aPendingAppGetsOneNotificationWithThreeButtonsThatStaysUntilDecided() {
        var fixture = MachineFixture()
        let produced = fixture.handle(.appsListed([viewer, MachineFixture.app("exe:/usr/bin/eog", pending: false)]))
        let contents = MachineFixture.notified(produced)
        #expect(contents.count == 1)
        #expect(contents.first?.summary == "An app asks to see your photos")
        #expect(contents.first?.actions.map(\.key) == ["allow", "deny", "choose"])
        #expect(contents.first?.actions.map(\.label) == ["Allow", "Deny", "Choose…"])
        #expect(contents.first?.expireTimeout == 0)
        #expect(contents.first?.body.contains("/home/ann/viewer.py") == true)
    }

    @Test func allowFromTheServerDecidesAndTheDecisionClosesTheNotification() throws {
        var fixture = MachineFixture()
        let id = try #require(fixture.show(fixture.watch(.requested, viewer)).first)
        let pressed = fixture.handle(.actionInvoked(id: id, key: "allow", sender: MachineFixture.server))
        #expect(MachineFixture.decisions(pressed) == [.decide(AppKey(viewer), status: .authorized, confirmed: false)])
        var decided = viewer
        decided.pending = false
        decided.status = .authorized
        #expect(MachineFixture.closed(fixture.watch(.decided, decided)) == [id])
        // The server's own NotificationClosed that follows changes nothing.
        #expect(fixture.handle(.notificationClosed(id: id, reason: 3, sender: MachineFixture.server)).isEmpty)
    }

    @Test func denyAndChooseDoWhatTheySay() throws {
        var fixture = MachineFixture()
        let id = try #require(fixture.show(fixture.watch(.requested, viewer)).first)
        #expect(MachineFixture.decisions(fixture.handle(.actionInvoked(id: id, key: "deny", sender: MachineFixture.server)))
                == [.decide(AppKey(viewer), status: .denied, confirmed: false)])
        #expect(fixture.handle(.actionInvoked(id: id, key: "choose", sender: MachineFixture.server))
                == [.openPrompt(AppKey(viewer))])
    }

    @Test func anActionFromAnotherBusNameIsIgnoredAndLogged() throws {
        var fixture = MachineFixture()
        let id = try #require(fixture.show(fixture.watch(.requested, viewer)).first)
        let forged = fixture.handle(.actionInvoked(id: id, key: "allow", sender: ":1.99"))
        #expect(MachineFixture.decisions(forged).isEmpty)
        let log = try #require(MachineFixture.logs(forged).first)
        #expect(log.level == .warning)
        #expect(log.metadata["sender"] == ":1.99")
        #expect(log.metadata["server"] == MachineFixture.server)
        // A forged close does not take the notification away either.
        fixture.handle(.notificationClosed(id: id, reason: 2, sender: ":1.99"))
        #expect(MachineFixture.decisions(fixture.handle(.actionInvoked(id: id, key: "deny", sender: MachineFixture.server)))
                .count == 1)
    }

    @Test func aButtonTheNotificationDoesNotOfferIsIgnored() throws {
        var fixture = MachineFixture()
        let id = try #require(fixture.show(fixture.watch(.requested, viewer)).first)
        for key in ["allow-confirmed", "default", ""] {
            #expect(MachineFixture.decisions(fixture.handle(.actionInvoked(id: id, key: key, sender: MachineFixture.server)))
                        .isEmpty, "\(key)")
        }
        #expect(fixture.handle(.actionInvoked(id: id + 1, key: "allow", sender: MachineFixture.server))
                    .allSatisfy { if case .log = $0 { true } else { false } })
    }

    @Test func everyWayARequestEndsClosesItsNotification() throws {
        for kind in [AuthorizationEventKind.decided, .reset, .cancelled, .removed] {
            var fixture = MachineFixture()
            let id = try #require(fixture.show(fixture.watch(.requested, viewer)).first)
            // `removed` sends the record as it was, still pending: the kind alone ends it.
            #expect(MachineFixture.closed(fixture.watch(kind, viewer)) == [id], "\(kind)")
        }
        var fixture = MachineFixture()
        let id = try #require(fixture.show(fixture.watch(.requested, viewer)).first)
        var timedOut = viewer
        timedOut.pending = false
        #expect(MachineFixture.closed(fixture.watch(.selectionChanged, timedOut)) == [id])
    }

    @Test func aNotificationAnsweredAfterItsRequestEndedIsClosedAtOnce() {
        var fixture = MachineFixture()
        let sent = fixture.watch(.requested, viewer)
        fixture.watch(.cancelled, viewer)
        let before = fixture.actions.count
        let ids = fixture.show(sent, firstID: 5)
        #expect(ids == [5])
        #expect(MachineFixture.closed(fixture.actions(since: before)) == [5])
    }

    @Test func theOwnerClosingItKeepsTheRequestWaitingUntilTheAppAsksAgain() throws {
        var fixture = MachineFixture()
        let id = try #require(fixture.show(fixture.watch(.requested, viewer)).first)
        let closed = fixture.handle(.notificationClosed(id: id, reason: 2, sender: MachineFixture.server))
        #expect(MachineFixture.notified(closed).isEmpty)
        // A re-list after a reconnect does not bring it back; the app asking again does.
        #expect(MachineFixture.notified(fixture.handle(.appsListed([viewer]))).isEmpty)
        #expect(MachineFixture.notified(fixture.watch(.requested, viewer)).count == 1)
    }

    @Test func aButtonReportedJustAfterTheServerClosedItStillCounts() throws {
        var fixture = MachineFixture()
        let id = try #require(fixture.show(fixture.watch(.requested, viewer)).first)
        fixture.handle(.notificationClosed(id: id, reason: 2, sender: MachineFixture.server))
        #expect(MachineFixture.decisions(fixture.handle(.actionInvoked(id: id, key: "deny", sender: MachineFixture.server)))
                == [.decide(AppKey(viewer), status: .denied, confirmed: false)])
    }

    @Test func anotherUsersAppSaysWhoseItIsAndIsDecidedForThatUser() throws {
        var fixture = MachineFixture()
        let other = MachineFixture.app("uid:1001:exe-unknown", uid: 1001, warning: nil)
        let produced = fixture.watch(.requested, other)
        #expect(MachineFixture.notified(produced).first?.body.contains("of user 1001") == true)
        let id = try #require(fixture.show(produced).first)
        #expect(MachineFixture.decisions(fixture.handle(.actionInvoked(id: id, key: "deny", sender: MachineFixture.server)))
                == [.decide(AppKey(id: "uid:1001:exe-unknown", uid: 1001), status: .denied, confirmed: false)])
    }

    @Test func choosingWithoutATerminalShowsTheRequestAgainWithTheCommandToRun() throws {
        var fixture = MachineFixture()
        let first = try #require(fixture.show(fixture.watch(.requested, viewer)).first)
        let command = PromptCommand.text(for: AppKey(viewer))
        let produced = fixture.handle(.promptUnavailable(AppKey(viewer), command: command))
        // The one whose button was pressed goes; the request comes back as a new notification.
        #expect(MachineFixture.closed(produced) == [first])
        let again = MachineFixture.notified(produced)
        #expect(again.count == 1)
        #expect(again.first?.summary == NotificationText.summary)
        #expect(again.first?.body.contains("Run this in a terminal: photoctl permissions prompt --app \(viewer.id) --uid 1000") == true)
        #expect(again.first?.actions.map(\.key) == ["allow", "deny"], "Choose… cannot work; Allow and Deny still do")
        let second = try #require(fixture.show(produced, firstID: 9).first)
        // The server's late close of the first notification does not dismiss the request.
        fixture.handle(.notificationClosed(id: first, reason: 2, sender: MachineFixture.server))
        #expect(MachineFixture.decisions(fixture.handle(.actionInvoked(id: second, key: "allow", sender: MachineFixture.server)))
                == [.decide(AppKey(viewer), status: .authorized, confirmed: false)])
    }
}
