import PhotoAPI
import Testing
@testable import PhotoNotify

/// An interpreter or shell without a script: Allow asks again, with the warning, and only the
/// second Allow decides, with `confirmed`.
@Suite struct NotifierConfirmationTests {
    static let warning = "this is python3 running code without a script file, not one program"
    let python = MachineFixture.app("exe:/usr/bin/python3", warning: NotifierConfirmationTests.warning)

    @Test func theFirstNotificationCarriesTheWarningAndAllowAsksAgainInPlace() throws {
        var fixture = MachineFixture()
        let first = fixture.watch(.requested, python)
        #expect(MachineFixture.notified(first).first?.body.contains("Warning: \(Self.warning).") == true)
        let id = try #require(fixture.show(first).first)

        let pressed = fixture.handle(.actionInvoked(id: id, key: "allow", sender: MachineFixture.server))
        #expect(MachineFixture.decisions(pressed).isEmpty)
        let (_, replacing, confirmation) = try #require(MachineFixture.lastNotify(pressed))
        #expect(replacing == id)
        #expect(confirmation.actions.map(\.key) == ["allow-confirmed", "deny", "choose"])
        #expect(confirmation.actions.first?.label == "Allow all of them")
        #expect(confirmation.body.contains(Self.warning))

        // The server closes the first one as the button is pressed, before it shows the
        // replacement: that close is about the old notification and changes nothing.
        #expect(fixture.handle(.notificationClosed(id: id, reason: 2, sender: MachineFixture.server)).isEmpty)
        fixture.show(pressed)
        let confirmed = fixture.handle(.actionInvoked(id: id, key: "allow-confirmed", sender: MachineFixture.server))
        #expect(MachineFixture.decisions(confirmed) == [.decide(AppKey(python), status: .authorized, confirmed: true)])
    }

    @Test func theFirstAllowNeverDecidesAndDenyNeedsNoConfirmation() throws {
        var fixture = MachineFixture()
        let id = try #require(fixture.show(fixture.watch(.requested, python)).first)
        #expect(MachineFixture.decisions(fixture.handle(.actionInvoked(id: id, key: "allow-confirmed",
                                                                       sender: MachineFixture.server))).isEmpty)
        #expect(MachineFixture.decisions(fixture.handle(.actionInvoked(id: id, key: "deny", sender: MachineFixture.server)))
                == [.decide(AppKey(python), status: .denied, confirmed: false)])
    }

    @Test func aReplacementUnderANewIDClosesTheOldOne() throws {
        var fixture = MachineFixture()
        let id = try #require(fixture.show(fixture.watch(.requested, python)).first)
        let pressed = fixture.handle(.actionInvoked(id: id, key: "allow", sender: MachineFixture.server))
        let tag = try #require(MachineFixture.lastNotify(pressed)).tag
        #expect(MachineFixture.closed(fixture.handle(.notified(tag: tag, id: id + 10, server: MachineFixture.server)))
                == [id])
    }

    @Test func photodAskingForConfirmationTurnsAnAllowIntoTheConfirmationStep() throws {
        var fixture = MachineFixture()
        let bash = MachineFixture.app("exe:/usr/bin/bash")
        let id = try #require(fixture.show(fixture.watch(.requested, bash)).first)
        #expect(MachineFixture.decisions(fixture.handle(.actionInvoked(id: id, key: "allow", sender: MachineFixture.server)))
                .count == 1)
        let refused = fixture.handle(.decideFailed(AppKey(bash), warning: "this is the shell bash", reason: "ConfirmationRequired"))
        let confirmation = try #require(MachineFixture.notified(refused).first)
        #expect(confirmation.actions.first?.key == "allow-confirmed")
        #expect(confirmation.body.contains("this is the shell bash"))
    }

    @Test func anotherRefusalIsLoggedAndChangesNothing() throws {
        var fixture = MachineFixture()
        fixture.show(fixture.watch(.requested, python))
        let refused = fixture.handle(.decideFailed(AppKey(python), warning: nil, reason: "UnknownApp"))
        #expect(MachineFixture.logs(refused).map(\.level) == [.error])
        #expect(MachineFixture.notified(refused).isEmpty)
    }
}
