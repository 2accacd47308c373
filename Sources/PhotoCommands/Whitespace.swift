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
