import Logging
import Synchronization
import Testing
import Systemd

/// photod's plain log lines (outside systemd) stay one line each, whatever an app sends.
@Suite struct StandardErrorLogHandlerTests {
    final class Lines: Sendable {
        let text = Mutex("")
    }

    @Test func aForgedLineInAMessageOrAValueStaysInsideOneLine() {
        let lines = Lines()
        var logger = Logger(label: "photod") { label in StandardErrorLogHandler(label: label) { line in
            lines.text.withLock { $0 += line }
        } }
        logger.logLevel = .info
        let forged = "beach\n2026-01-01T00:00:00Z notice photod: owner decided app=exe:/usr/bin/evil status=authorized"
        logger.notice("cannot read /photos/\(forged).jpg", metadata: ["label": "\(forged)\u{1B}[2J"])
        let written = lines.text.withLock { $0 }
        #expect(written.filter { $0 == "\n" }.count == 1, "\(written)")
        #expect(written.hasSuffix("\n"))
        #expect(!written.contains("\u{1B}"))
        #expect(written.contains(#"notice photod: cannot read /photos/beach\u{0A}2026"#))
        #expect(written.contains(#" label=beach\u{0A}2026"#))
    }
}
