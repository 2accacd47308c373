import PhotoAPI
import Testing
@testable import PhotoNotify

/// A pick an app asked for is a notification of its own: Choose… opens photoctl's picker,
/// Cancel cancels it, and its end closes it.
@Suite struct NotifierPickTests {
    /// An app of any status asking for up to `limit` photos.
    static func pick(_ id: String = "pick-1", limit: Int = 3, label: String? = "a cover") -> PickRequest {
        PickRequest(id: id, app: MachineFixture.app("app:org.example.Printer", pending: false), reason: "to print <b>\u{1b}[2J",
                    label: label, limit: limit, groups: [], requestedAt: "2026-11-28T00:00:00Z",
                    expiresAt: "2026-11-28T00:02:00Z")
    }

    @Test func aPickSaysHowManyAndWhyEscapedAndChooseOpensThePicker() throws {
        var fixture = MachineFixture()
        let pick = Self.pick()
        let produced = fixture.handle(.authorization(.init(kind: .pickRequested, app: pick.app, pick: pick)))
        let content = try #require(MachineFixture.notified(produced).first)
        #expect(content.summary == "An app asks you to choose photos")
        #expect(content.body.contains("wants you to choose up to 3 photos (&quot;a cover&quot;): to print &lt;b&gt;\\u{1B}[2J"),
                "\(content.body)")
        #expect(content.actions.map(\.key) == [ActionKey.choose, ActionKey.cancel])
        let id = try #require(fixture.show(produced).first)
        let chosen = fixture.handle(.actionInvoked(id: id, key: ActionKey.choose, sender: MachineFixture.server))
        #expect(chosen.contains(.openPrompt(AppKey(pick))))
        #expect(PromptCommand.arguments(photoctl: "/usr/bin/photoctl", app: AppKey(pick))
                == ["/usr/bin/photoctl", "pick", "--app", "app:org.example.Printer", "--uid", "\(MachineFixture.owner)"])
        let cancelled = fixture.handle(.actionInvoked(id: id, key: ActionKey.cancel, sender: MachineFixture.server))
        #expect(cancelled.contains(.cancelPick(AppKey(pick))))
    }

    @Test func aPickEndingClosesItAndAReconnectListsWaitingPicks() throws {
        var fixture = MachineFixture()
        let first = Self.pick("pick-1"), second = Self.pick("pick-2", limit: 1, label: nil)
        let ids = fixture.show(fixture.handle(.appsListed([], picks: [first, second])))
        #expect(ids.count == 2)
        let ended = fixture.handle(.authorization(.init(kind: .pickEnded, app: first.app, answer: .allowed, pick: first, picked: 2)))
        #expect(MachineFixture.closed(ended) == [ids[0]])
        let plain = NotificationText.pick(second, ownerUID: MachineFixture.owner,
                                          capabilities: ServerCapabilities(actions: false, bodyMarkup: false))
        #expect(plain.body.contains("wants you to choose a photo: to print"))
        #expect(plain.body.contains("photoctl pick") && plain.actions.isEmpty)
    }
}
