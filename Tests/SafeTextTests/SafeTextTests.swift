import SafeText
import Testing

@Suite("SafeText")
struct SafeTextTests {
    @Test("terminal escapes, newlines and bidi overrides are shown, not acted on")
    func escapesControls() {
        #expect(SafeText.escaped("a\u{1B}]0;title\u{07}b") == "a\\u{1B}]0;title\\u{07}b")
        #expect(SafeText.escaped("line\nforged") == "line\\u{0A}forged")
        #expect(SafeText.escaped("\u{9B}2J") == "\\u{9B}2J")
        #expect(SafeText.escaped("abc\u{202E}gpj.exe") == "abc\\u{202E}gpj.exe")
        #expect(SafeText.escaped("Café Crème 海") == "Café Crème 海")
    }

    @Test("a backslash is doubled, so an escape in the output cannot be forged by the input")
    func backslashDoubled() {
        #expect(SafeText.escaped("\\u{0A}") == "\\\\u{0A}")
    }

    @Test("bytes that are not UTF-8 are shown one by one, valid text around them kept")
    func invalidBytes() {
        let bytes: [UInt8] = Array("ok".utf8) + [0xFF, 0xC3] + Array("é\n".utf8)
        #expect(SafeText.escaped(bytes: bytes) == "ok\\x{FF}\\x{C3}é\\u{0A}")
    }

    @Test("a long text is cut at a scalar boundary and says how much was left out")
    func cutToBytes() {
        let text = String(repeating: "é", count: 100)
        let cut = SafeText.escaped(text, maxBytes: 11)
        #expect(cut == String(repeating: "é", count: 5) + "…(190 more bytes)")
        #expect(SafeText.escaped("short", maxBytes: 11) == "short")
    }
}
