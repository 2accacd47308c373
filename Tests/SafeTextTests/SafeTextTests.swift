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

    @Test("each ASCII character is escaped alike in text and in bytes, and only controls, DEL and the backslash are")
    func asciiAsTextAndAsBytes() {
        for value in UInt8(0)..<0x80 {
            let text = String(UnicodeScalar(value))
            let plain = value >= 0x20 && value != 0x7F && value != UInt8(ascii: "\\")
            #expect(SafeText.escaped(text) == SafeText.escaped(bytes: [value]), "\(value)")
            #expect((SafeText.escaped(text) == text) == plain, "\(value)")
            #expect(SafeText.needsEscape(UnicodeScalar(value)) == !plain, "\(value)")
        }
        #expect(SafeText.escaped(bytes: Array("/photos/2012/01/IMG_1.jpg".utf8)) == "/photos/2012/01/IMG_1.jpg")
        #expect(SafeText.escaped("tab\there", shortEscapes: true) == "tab\\there")
        #expect(SafeText.escaped("tab\there\u{7F}", shortEscapes: true) == "tab\\there\\u{7F}")
    }

    @Test("a long text is cut at a scalar boundary and says how much was left out")
    func cutToBytes() {
        let text = String(repeating: "é", count: 100)
        let cut = SafeText.escaped(text, maxBytes: 11)
        #expect(cut == String(repeating: "é", count: 5) + "…(190 more bytes)")
        #expect(SafeText.escaped("short", maxBytes: 11) == "short")
    }
}

/// `SafeText.quoted`: an app's label set apart, short, and with nothing invisible in it.
@Suite struct SafeTextQuotedTests {
    @Test func blankLookingCharactersAreEscapedAndPlainSpacesKept() {
        let blanks = "\u{2800}\u{3164}\u{115F}\u{1160}\u{FFA0}\u{A0}\u{2003}\u{200B}\u{202E}\u{2066}\u{FEFF}\u{34F}"
        #expect(SafeText.quoted("a b" + blanks) == "\"a b\\u{2800}\\u{3164}\\u{115F}\\u{1160}\\u{FFA0}\\u{A0}\\u{2003}"
                + "\\u{200B}\\u{202E}\\u{2066}\\u{FEFF}\\u{34F}\"")
    }

    @Test func aQuoteInsideCannotCloseTheQuotesAndABackslashStaysUnambiguous() {
        #expect(SafeText.quoted("GNOME Photos\" (app:x)") == "\"GNOME Photos\\\" (app:x)\"")
        #expect(SafeText.quoted("a\\\"b") == "\"a\\\\\\\"b\"")
    }

    @Test func aLongLabelIsCutByCharactersAndATowerOfMarksByScalars() {
        #expect(SafeText.quoted(String(repeating: "é", count: 40), maxCharacters: 4) == "\"éééé…\"")
        #expect(SafeText.quoted("abcd", maxCharacters: 4) == "\"abcd\"")
        let tower = "a" + String(repeating: "\u{301}", count: 300_000)
        let quoted = SafeText.quoted(tower, maxCharacters: 4)
        #expect(quoted.unicodeScalars.count == 1 + 16 + 2)
        #expect(quoted.hasSuffix("…\""))
    }
}
