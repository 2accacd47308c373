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
        #expect(body.hasPrefix("exe:/opt/<i>evil</i> (calls itself \"<b>x</b>\\u{1B}[31m\\u{0A}forged & 'q'\")"))
        #expect(!body.contains("\u{1B}"))
        #expect(body.split(separator: "\n").count == 2)
    }

    /// The label of issue 26: it imitates the line around it, then pushes the real id out of
    /// sight with blank-looking characters.
    static let impostor = "GNOME Photos\" (app:org.gnome.Photos) to see your photo library?"
        + String(repeating: "\u{2800}", count: 200)

    @Test func aLabelPosingAsAnotherAppComesAfterTheRealIDQuotedShortAndVisible() {
        let app = App(id: "exe:/tmp/evil", uid: 1000, label: Self.impostor, status: .notDetermined,
                      reason: "to show photos", pending: true)
        for markup in [false, true] {
            let body = NotificationText.request(app, confirming: false, ownerUID: 1000,
                                                capabilities: .init(actions: true, bodyMarkup: markup)).body
            let quote = markup ? "&quot;" : "\""
            #expect(body.hasPrefix("exe:/tmp/evil (calls itself \(quote)GNOME Photos\\\(quote) (app:org.gnome.Pho…\(quote)) "
                                   + "asks to see your photo library.\n"), "\(body)")
            #expect(!body.contains("\u{2800}"))
            #expect(!body.contains("GNOME Photos\(quote) (app:org.gnome.Photos)"))
        }
        let confirming = NotificationText.request(App(id: "exe:/tmp/evil", uid: 1000, label: Self.impostor + "\u{3164}\u{202E}",
                                                      status: .notDetermined, pending: true, warning: "w"),
                                                  confirming: true, ownerUID: 1000,
                                                  capabilities: .init(actions: true, bodyMarkup: false)).body
        #expect(confirming.hasPrefix("Really allow exe:/tmp/evil (calls itself \"GNOME Photos\\\""))
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
