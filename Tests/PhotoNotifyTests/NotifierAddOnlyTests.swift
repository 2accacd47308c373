import PhotoAPI
import Testing
@testable import PhotoNotify

/// An add-only request is its own notification, in its own words, answered at its own level.
@Suite struct NotifierAddOnlyTests {
    /// An app waiting for an answer to add photos, and not to see them.
    static func adder(pendingRead: Bool = false) -> App {
        var app = MachineFixture.app("app:org.example.Memes", reason: "to show photos", pending: pendingRead)
        app.addOnly = AddOnlyAccess(status: .notDetermined, pending: true, reason: "to save your memes")
        return app
    }

    @Test func anAddOnlyRequestSaysWhatItAsksAndAllowDecidesThatLevel() throws {
        var fixture = MachineFixture()
        let produced = fixture.handle(.authorization(.init(kind: .requested, app: Self.adder(), level: .addOnly)))
        let content = try #require(MachineFixture.notified(produced).first)
        #expect(content.summary == "An app asks to add photos")
        #expect(content.body.contains("add photos only"))
        #expect(content.body.contains("to save your memes"))
        #expect(!content.body.contains("to show photos"))
        let id = try #require(fixture.show(produced).first)
        let pressed = fixture.handle(.actionInvoked(id: id, key: "allow", sender: MachineFixture.server))
        #expect(MachineFixture.decisions(pressed)
                == [.decide(AppKey(Self.adder(), level: .addOnly), status: .authorized, confirmed: false)])
    }

    @Test func bothLevelsWaitingAreTwoNotificationsEndedApart() throws {
        var fixture = MachineFixture()
        let listed = fixture.handle(.appsListed([Self.adder(pendingRead: true)]))
        let contents = MachineFixture.notified(listed)
        #expect(contents.map(\.summary).sorted() == ["An app asks to add photos", "An app asks to see your photos"])
        let ids = fixture.show(listed)
        #expect(ids.count == 2)
        var decided = Self.adder(pendingRead: true)
        decided.addOnly?.pending = false
        decided.addOnly?.status = .denied
        let closed = MachineFixture.closed(fixture.handle(.authorization(.init(kind: .decided, app: decided, level: .addOnly))))
        #expect(closed.count == 1)
        // The readWrite request is still on the desktop, and removing the app closes it.
        let removed = MachineFixture.closed(fixture.watch(.removed, decided))
        #expect(removed.count == 1)
        #expect(Set(closed + removed) == Set(ids))
    }

    @Test func withoutButtonsTheCommandNamesTheLevel() {
        let content = NotificationText.request(Self.adder(), level: .addOnly, confirming: false, ownerUID: MachineFixture.owner,
                                               capabilities: ServerCapabilities(actions: false, bodyMarkup: false))
        #expect(content.body.contains("photoctl permissions allow app:org.example.Memes --level add"))
    }
}
