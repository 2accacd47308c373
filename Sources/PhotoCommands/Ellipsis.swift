/// Shortens escaped text to a number of terminal columns, putting "…" where text was left out.
///
/// It works on what the terminal shows: whole grapheme clusters (a base and its combining
/// marks, an emoji sequence), each counted by `TerminalWidth`, and whole escapes (`\u{1B}`,
/// `\x{FF}`, `\\` from `SafeText`), so a cut never leaves a mark without its base, half a
/// wide character, or an escape that reads as something else.
enum Ellipsis {
    /// Where the text is left out.
    enum Position: Sendable {
        /// Keep the beginning (text: a description, a group name).
        case end
        /// Keep both ends (an app's id: its kind and its program's name both matter): the part
        /// after the last "/" whole when it fits, else half and half as systemd does.
        case middle
        /// A path (or an id made of one, "script:/home/ann/bin/backup.sh"): its file name
        /// whole and the folders nearest it, the folders further up given way first; see `fitPath`.
        case path
    }

    /// The mark put where text was left out; it takes one column.
    static let mark = "…"

    /// `escaped` in at most `width` columns (at least one: the mark); unchanged when it fits.
    static func fit(_ escaped: String, width: Int, at position: Position) -> String {
        let width = max(width, 1)
        guard TerminalWidth.of(escaped) > width else { return escaped }
        let pieces = units(of: escaped)
        switch position {
        case .end:
            return String(prefix(pieces, width: width - 1)) + mark
        case .middle:
            if let slash = pieces.lastIndex(of: "/"), slash > pieces.startIndex {
                let name = String(joined(pieces[slash...]))
                let nameWidth = TerminalWidth.of(name)
                if nameWidth + 1 <= width {
                    return String(prefix(pieces, width: width - 1 - nameWidth)) + mark + name
                }
            }
            return halves(pieces, width: width, keepingEnd: 0)
        case .path:
            return fitPath(pieces, width: width)
        }
    }

    /// `units` in `width` columns (more than they take) with the mark between a start and an
    /// end: like systemd's ellipsize_mem at 50 %, the first half rounded up keeps the start,
    /// except that the end keeps at least `keepingEnd` columns (a file name's extension).
    static func halves(_ units: [Substring], width: Int, keepingEnd: Int) -> String {
        let kept = width - 1
        let end = min(max(keepingEnd, kept / 2), kept)
        let start = prefix(units, width: kept - end)
        let used = TerminalWidth.of(String(start))
        return String(start) + mark + String(suffix(units, width: kept - used))
    }

    /// The pieces a cut may fall between: grapheme clusters, with each escape kept whole.
    static func units(of escaped: String) -> [Substring] {
        var units: [Substring] = []
        var index = escaped.startIndex
        while index < escaped.endIndex {
            let end = endOfUnit(in: escaped, at: index)
            units.append(escaped[index..<end])
            index = end
        }
        return units
    }

    /// Where the unit starting at `index` ends: after one grapheme cluster, or after a whole
    /// `\\`, `\u{…}` or `\x{…}` escape (its closing brace may carry combining marks that came
    /// after the escaped character; they stay with it).
    private static func endOfUnit(in text: String, at index: String.Index) -> String.Index {
        let next = text.index(after: index)
        guard text[index] == "\\", next < text.endIndex, let kind = text[next].unicodeScalars.first else { return next }
        if kind == "\\" { return text.index(after: next) }
        guard kind == "u" || kind == "x" else { return next }
        // SafeText writes at most eight hex digits between the braces.
        var end = next
        for _ in 0..<12 {
            end = text.index(after: end)
            guard end < text.endIndex else { return next }
            if text[end].unicodeScalars.first == "}" { return text.index(after: end) }
        }
        return next
    }

    /// The leading units that fit in `width` columns.
    static func prefix(_ units: [Substring], width: Int) -> Substring {
        var used = 0
        var count = 0
        for unit in units {
            let columns = TerminalWidth.of(String(unit))
            if used + columns > width { break }
            used += columns
            count += 1
        }
        return joined(units.prefix(count))
    }

    /// The trailing units that fit in `width` columns.
    static func suffix(_ units: [Substring], width: Int) -> Substring {
        var used = 0
        var count = 0
        for unit in units.reversed() {
            let columns = TerminalWidth.of(String(unit))
            if used + columns > width { break }
            used += columns
            count += 1
        }
        return joined(units.suffix(count))
    }

    /// The units as the one piece of text they came from.
    static func joined(_ units: ArraySlice<Substring>) -> Substring {
        guard let first = units.first, let last = units.last else { return "" }
        return first.base[first.startIndex..<last.endIndex]
    }
}
