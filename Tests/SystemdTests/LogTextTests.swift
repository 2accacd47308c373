import Logging
import Systemd
import Testing

/// A message or value from an app, a photo or a path cannot forge a log line or make one huge,
/// while the journal's own fields keep the exact bytes (issue 11, item 14).
@Suite struct LogTextTests {
    static func event(_ message: Logger.Message, _ metadata: Logger.Metadata = [:]) -> LogEvent {
        LogEvent(level: .notice, message: message, metadata: metadata, source: nil, file: "f", function: "g", line: 1)
    }

    static let forged = "x.jpg\nphotod: owner decided app=exe:/usr/bin/evil status=authorized\u{1B}[2J"

    @Test func theJournalMessageIsEscapedAndItsFieldsAreExact() {
        let fields = JournalLogHandler(label: "photod").fields(for: Self.event("cannot read \(Self.forged)", ["path": "\(Self.forged)"]))
        let message = fields.first { $0.hasPrefix("MESSAGE=") } ?? ""
        #expect(!message.contains("\n") && !message.contains("\u{1B}"))
        #expect(message.contains(#"x.jpg\u{0A}photod: owner decided"#))
        #expect(fields.contains("PHOTOD_PATH=" + Self.forged), "the structured field keeps the exact bytes")
    }

    @Test func aHugeMessageIsCapped() {
        let fields = JournalLogHandler(label: "photod").fields(for: Self.event("\(String(repeating: "a", count: 100_000))"))
        let message = fields.first { $0.hasPrefix("MESSAGE=") } ?? ""
        #expect(message.utf8.count < LogText.maximumMessageBytes + 100)
        #expect(message.hasSuffix("more bytes)"))
    }

    @Test func plainMetadataIsEscapedAndCappedInKeyOrder() {
        let shown = LogText.metadata(["reason": "\(Self.forged)", "app": "\(String(repeating: "b", count: 5000))"])
        #expect(!shown.contains("\n") && !shown.contains("\u{1B}"))
        #expect(shown.hasPrefix(" app=bbb"))
        #expect(shown.contains(#" reason=x.jpg\u{0A}photod"#))
        #expect(shown.utf8.count < 2 * LogText.maximumValueBytes)
    }
}
