import SafeText

/// A value or key from a config file as an error message shows it: escaped (`SafeText`), so it
/// stays on one line, and cut to `maxCharacters` with "…" and its full size, so a megabyte
/// string does not become a megabyte of message.
public enum ShownText {
    /// The most characters of the text an error message shows.
    public static let maxCharacters = 80

    /// `text` escaped, and cut with "…" and its size in bytes when longer than `maxCharacters`.
    public static func of(_ text: some StringProtocol) -> String {
        let escaped = SafeText.escaped(String(text))
        guard escaped.count > maxCharacters else { return escaped }
        return String(escaped.prefix(maxCharacters)) + "… (\(text.utf8.count) bytes)"
    }
}
