/// How many terminal columns text takes, so that tables line up: East Asian wide characters
/// and emoji take two, combining marks none, everything else one (what wcwidth says in a
/// UTF-8 locale, without depending on the process's locale).
enum TerminalWidth {
    /// The columns `text` takes; `text` is already escaped, so it holds no controls.
    static func of(_ text: String) -> Int {
        // Printable ASCII, most of every table: a column a byte, with no scalar decoded.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
        return text.unicodeScalars.reduce(0) { $0 + of($1) }
    }

    /// The columns one scalar takes.
    static func of(_ scalar: Unicode.Scalar) -> Int {
        // Printable ASCII, most of every table, without a look at the Unicode properties.
        if scalar.value >= 0x20 && scalar.value < 0x7F { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format:
            return 0
        default:
            break
        }
        if scalar.properties.isEmojiPresentation { return 2 }
        return isWide(scalar.value) ? 2 : 1
    }

    /// East Asian Wide and Fullwidth blocks (Unicode's EastAsianWidth.txt, W and F, merged). A
    /// switch, not a static array of ranges: making that array's type at run time costs a scan
    /// of every protocol conformance in the binary, a twentieth of a whole `photoctl groups`.
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19,
             0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1B000...0x1B2FF, 0x20000...0x2FFFD,
             0x30000...0x3FFFD:
            true
        default:
            false
        }
    }
}
