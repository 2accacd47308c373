import PhotoAPI
import Testing
@testable import PhotoNotify

/// What a notification says, whatever an app put in its label, id and reason.
@Suite struct NotificationTextTests {
    static let hostile = App(id: "exe:/opt/<i>evil</i>", uid: 1000, label: "<b>x</b>\u{1B}[31m\nforged & 'q'",
                             status: .notDetermined, reason: "see <a href=\"http://x\">this</a>\u{7}", pending: true)

    @Test func withMarkupEveryAppStringIsEscapedAndEntityEncoded() {
        let body = NotificationText.request(Self.hostile, confirming: false, ownerUID: 1000,
                                            capabilities: .init(actions: true, bodyMarkup: true)).body
        #expect(!body.contains("<"))
        #expect(!body.contains("\u{1B}"))
        #expect(!body.contains("\u{7}"))
        #expect(body.contains("&lt;b&gt;x&lt;/b&gt;\\u{1B}[31m\\u{0A}forged &amp; &apos;q&apos;"))
        #expect(body.contains("exe:/opt/&lt;i&gt;evil&lt;/i&gt;"))
        #expect(body.contains("see &lt;a href=&quot;http://x&quot;&gt;this&lt;/a&gt;\\u{07}"))
        // Exactly the lines the notifier wrote: the label's newline did not make one.
        #expect(body.split(separator: "\n").count == 2)
    }

    @Test func withoutMarkupTheTextIsPlainButControlCharactersStillShowEscaped() {
        let body = NotificationText.request(Self.hostile, confirming: false, ownerUID: 1000,
                                            capabilities: .init(actions: true, bodyMarkup: false)).body
        #expect(body.contains("\"<b>x</b>\\u{1B}[31m\\u{0A}forged & 'q'\" (exe:/opt/<i>evil</i>)"))
        #expect(!body.contains("\u{1B}"))
        #expect(body.split(separator: "\n").count == 2)
    }

    @Test func anAppWithoutLabelOrReasonIsNamedByItsID() {
        let app = App(id: "exe:/usr/bin/eog", uid: 1000, label: "", status: .notDetermined, pending: true)
        let body = NotificationText.request(app, confirming: false, ownerUID: 1000,
                                            capabilities: .init(actions: true, bodyMarkup: false)).body
        #expect(body == "exe:/usr/bin/eog asks to see your photo library.\nReason: (none given)")
    }

    @Test func withoutButtonsAnUnsafeIDOrAWarningNamesOnlyThePrompt() {
        let plain = ServerCapabilities(actions: false, bodyMarkup: false)
        let unsafe = NotificationText.request(Self.hostile, confirming: false, ownerUID: 1000, capabilities: plain).body
        #expect(unsafe.hasSuffix("Answer in a terminal: photoctl permissions prompt"))
        let python = App(id: "exe:/usr/bin/python3", uid: 1000, status: .notDetermined, pending: true, warning: "w")
        let warned = NotificationText.request(python, confirming: false, ownerUID: 1000, capabilities: plain).body
        #expect(warned.hasSuffix("Answer in a terminal: photoctl permissions prompt"))
        let other = App(id: "uid:1001:exe-unknown", uid: 1001, status: .notDetermined, pending: true)
        let otherUser = NotificationText.request(other, confirming: false, ownerUID: 1000, capabilities: plain).body
        #expect(otherUser.hasSuffix("photoctl permissions allow uid:1001:exe-unknown --uid 1001 (or deny)"))
    }

    @Test func markupEscapingCoversTheFiveSpecialCharacters() {
        #expect(NotificationText.markupEscaped("a&b<c>d\"e'f") == "a&amp;b&lt;c&gt;d&quot;e&apos;f")
        #expect(NotificationText.markupEscaped("plain é") == "plain é")
    }
}
