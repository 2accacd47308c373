import SafeText

/// Rows for scripts as tab-separated values, one way for every command that has `--format tsv`
/// (`list`, `find`, `groups`): a header line of field names unless `--no-legend`, then a line a
/// row, each value escaped so that it never splits a field or a line.
enum TSV {
    /// A raw value: text, or a path's bytes.
    enum Value: Equatable {
        /// Text, as photod sent it.
        case text(String)
        /// A path's exact bytes, which need not be UTF-8.
        case bytes([UInt8])

        /// The value as one tab-separated field: tab, newline and backslash as `\t`, `\n` and
        /// `\\`, other controls and bytes that are not UTF-8 as `SafeText` shows them, so a
        /// field never splits a row or a line.
        var tsv: String {
            switch self {
            case .text(let text): SafeText.escaped(text, shortEscapes: true)
            case .bytes(let bytes): SafeText.escaped(bytes: bytes, shortEscapes: true)
            }
        }
    }

    /// The header line of `names` (when `header`), then one line per row; a missing value is an
    /// empty field.
    static func text(names: [String], rows: [[Value?]], header: Bool) -> String {
        var text = header ? names.joined(separator: "\t") + "\n" : ""
        for row in rows {
            text += row.map { $0?.tsv ?? "" }.joined(separator: "\t") + "\n"
        }
        return text
    }
}
