import Testing
import TextFolding

/// What "case- and accent-insensitive" means, and that hostile text cannot make folding slow.
@Suite struct TextFoldingTests {
    @Test(arguments: [
        ("Café Crème", "cafe creme"), ("ÉTÉ", "ete"), ("Straße", "strasse"), ("ẞ", "ss"), ("Łódź", "lodz"),
        ("Ærøskøbing", "aeroskobing"), ("İstanbul", "istanbul"), ("ﬁsh", "fish"), ("ＡＢＣ１", "abc1"),
        ("ΟΔΟΣ", "οδοσ"), ("οδός", "οδοσ"), ("e\u{301}te\u{301}", "ete"), ("a\tb\nc\u{1B}d", "a b c d"),
        ("\u{202E}gpj.exe", "gpj.exe"), ("写真 東京", "写真 東京"), ("が", "か"), ("㎏", "kg"), ("Ⅻ", "xii"),
        ("a\u{200B}b\u{FEFF}c", "abc"), ("No\u{A0}5", "no 5"),
    ])
    func caseAccentsAndCompatibilityFormsFold(text: String, folded: String) {
        #expect(TextFolding.fold(text) == folded)
    }

    /// Every scalar, in runs of 32 neighbours: folding twice gives what folding once gave (the
    /// index and a query folded from folded text agree), and what is left holds no mark, no format
    /// or control character and no letter that still has a lower case (of the letters utf8proc's
    /// Unicode version has; a newer one is kept as it is).
    @Test func everyScalarFoldsToTextThatStaysFolded() {
        var notStable: [String] = []
        var leftOver: [String] = []
        for start in stride(from: UInt32(0), through: 0x10FFFF, by: 32) {
            var view = String.UnicodeScalarView()
            view.append(contentsOf: (start..<min(start + 32, 0x110000)).compactMap(Unicode.Scalar.init))
            let folded = TextFolding.fold(String(view))
            if TextFolding.fold(folded) != folded { notStable.append(Self.hex(start)) }
            for scalar in folded.unicodeScalars {
                switch scalar.properties.generalCategory {
                case .nonspacingMark, .spacingMark, .enclosingMark, .format, .control:
                    leftOver.append(Self.hex(scalar.value))
                case .uppercaseLetter where scalar.properties.changesWhenCaseFolded && Self.isKnownToUTF8Proc(scalar):
                    leftOver.append(Self.hex(scalar.value))
                default:
                    break
                }
            }
        }
        #expect(notStable == [], "runs starting at these scalars fold differently the second time")
        #expect(leftOver == [], "scalars left in folded text")
    }

    @Test func theIdentityNamesTheUnicodeVersionItFoldsBy() {
        #expect(TextFolding.identity.hasPrefix("utf8proc Unicode 1"), "\(TextFolding.identity)")
    }

    @Test(.timeLimit(.minutes(1)))
    func aLongRunOfMarksFoldsWithoutQuadraticReordering() {
        // Descending combining classes (230, 220, 129, 10, 1): the worst order for utf8proc's
        // neighbour swaps, 250,000 marks long.
        var view = String.UnicodeScalarView()
        view.append("a")
        for _ in 0..<50_000 { view.append(contentsOf: ["\u{301}", "\u{316}", "\u{F71}", "\u{5B0}", "\u{334}"]) }
        view.append("B")
        #expect(TextFolding.fold(String(view)) == "ab")
    }

    private static func isKnownToUTF8Proc(_ scalar: Unicode.Scalar) -> Bool {
        guard let age = scalar.properties.age else { return false }
        return (age.major, age.minor) <= TextFolding.unicodeVersion
    }

    private static func hex(_ value: UInt32) -> String { "U+" + String(value, radix: 16, uppercase: true) }
}
