import PhotoAPI
import Testing
@testable import PhotoNotify

/// A change an app asked for (its SetDescription) is a notification of its own, in its own
/// words, answered with AnswerChange, and closed however it ends.
@Suite struct NotifierChangeTests {
    /// An authorized app asking to describe `count` photos.
    static func change(_ id: String = "change-1", count: Int = 3, description: String? = "Harbour") -> ChangeRequest {
        var app = MachineFixture.app("app:org.example.Organizer", pending: false)
        app.status = .authorized
        return ChangeRequest(id: id, app: app, ids: (0..<count).map { "id\($0)" }, description: description,
                             requestedAt: "2026-11-28T00:00:00Z", expiresAt: "2026-11-28T00:02:00Z")
    }

    @Test func aChangeSaysWhatItWouldWriteAndAllowAnswersIt() throws {
        var fixture = MachineFixture()
        let change = Self.change(description: "Harbour <b>&</b>\u{1b}[2J")
        let produced = fixture.handle(.authorization(.init(kind: .changeRequested, app: change.app, change: change)))
        let content = try #require(MachineFixture.notified(produced).first)
        #expect(content.summary == "An app asks to change photos")
        #expect(content.body.hasPrefix("app:org.example.Organizer (calls itself"))
        #expect(content.body.contains(" asks to set the description of 3 photos to"))
        // Markup and controls from the app are shown as typed, never rendered or run.
        #expect(content.body.contains("&lt;b&gt;&amp;&lt;/b&gt;\\u{1B}[2J"), "\(content.body)")
        #expect(!content.body.contains("\u{1b}"))
        #expect(content.actions.map(\.key) == [ActionKey.allow, ActionKey.deny, ActionKey.choose])
        let id = try #require(fixture.show(produced).first)
        let allowed = fixture.handle(.actionInvoked(id: id, key: ActionKey.allow, sender: MachineFixture.server))
        #expect(allowed.contains(.answerChange(AppKey(change), allow: true)))
        let denied = fixture.handle(.actionInvoked(id: id, key: ActionKey.deny, sender: MachineFixture.server))
        #expect(denied.contains(.answerChange(AppKey(change), allow: false)))
        // Another program on the bus cannot answer it.
        let forged = fixture.handle(.actionInvoked(id: id, key: ActionKey.allow, sender: ":1.99"))
        #expect(!forged.contains { if case .answerChange = $0 { true } else { false } })
    }

    @Test func aChangeEndingAnyWayClosesOnlyItsNotification() throws {
        var fixture = MachineFixture()
        let change = Self.change()
        var waiting = MachineFixture.app("app:org.example.Organizer", pending: false)
        waiting.status = .authorized
        waiting.addOnly = AddOnlyAccess(status: .notDetermined, pending: true, reason: "to save")
        // The same app waits for an add-only answer too: two notifications, ended apart.
        let listed = fixture.handle(.appsListed([waiting], changes: [change]))
        let ids = fixture.show(listed)
        #expect(ids.count == 2)
        let ended = fixture.handle(.authorization(.init(kind: .changeEnded, app: change.app, change: change, answer: .withdrawn)))
        #expect(MachineFixture.closed(ended).count == 1)
        #expect(fixture.machine.requests.count == 1 && fixture.machine.requests.first?.change == nil)
    }

    @Test func aReconnectDropsChangesNoLongerListedAndWithoutButtonsNamesThePrompt() throws {
        var fixture = MachineFixture()
        let first = Self.change("change-1"), second = Self.change("change-2", count: 1, description: nil)
        let ids = fixture.show(fixture.handle(.appsListed([], changes: [first, second])))
        #expect(ids.count == 2)
        let relisted = fixture.handle(.appsListed([], changes: [second]))
        #expect(MachineFixture.closed(relisted).count == 1)
        let plain = NotificationText.change(second, ownerUID: MachineFixture.owner,
                                            capabilities: ServerCapabilities(actions: false, bodyMarkup: false))
        #expect(plain.body.contains("asks to clear the description of 1 photo."))
        #expect(plain.body.contains("photoctl permissions prompt") && plain.actions.isEmpty)
    }
}
