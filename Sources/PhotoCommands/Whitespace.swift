extension StringProtocol {
    /// The text without the white space at either end, as Foundation's
    /// `trimmingCharacters(in: .whitespaces)` took it, scalar by scalar.
    func trimmingWhitespace() -> String {
        let scalars = Substring(self).unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.isBlank }),
              let last = scalars.lastIndex(where: { !$0.isBlank }) else { return "" }
        return String(Substring(scalars[first...last]))
    }
}

extension Unicode.Scalar {
    /// Tab, a space separator (U+0020, U+00A0, U+3000, …) or U+200B, which Unicode once counted
    /// as one: exactly what `CharacterSet.whitespaces` holds.
    fileprivate var isBlank: Bool {
        self == "\t" || self == "\u{200B}" || properties.generalCategory == .spaceSeparator
    }
}

extension String {
    /// `count` spaces (none for zero or less), made in one piece: `String(repeating: " ", count:)`
    /// appends one space at a time, which made padding a table with a 4,281-character caption a
    /// visible part of `photoctl groups` (bench/README.md, "Figures behind the code").
    static func spaces(_ count: Int) -> String {
        count > 0 ? String(decoding: [UInt8](repeating: UInt8(ascii: " "), count: count), as: UTF8.self) : ""
    }
}
