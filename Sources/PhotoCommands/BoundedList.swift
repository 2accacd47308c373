/// A list of names for a line of prose, bounded: "a, b, and 42 more" instead of 44 names, each
/// name no wider than a bound, so one line stays one line whatever an app or a library holds.
enum BoundedList {
    /// Columns one name may take in a list; a longer one is shortened with "…".
    static let nameWidth = 40
    /// Columns one path may take: its name and the folders nearest it.
    static let pathWidth = 60

    /// `escaped` names (already escaped), the first `shown` of them each within `nameWidth`
    /// columns (a path within `pathWidth`, losing its folders first; other names their end),
    /// then ", and N more".
    static func text(_ escaped: [String], shown: Int, paths: Bool = false) -> String {
        joined(escaped, shown: shown) { Ellipsis.fit($0, width: paths ? pathWidth : nameWidth, at: paths ? .path : .end) }
    }

    /// `raw` names, not yet escaped (the line they go in is escaped as a whole), the first
    /// `shown` of them each within `nameWidth` characters, then ", and N more".
    static func raw(_ raw: [String], shown: Int) -> String {
        joined(raw, shown: shown) { $0.count > nameWidth ? $0.prefix(nameWidth - 1) + Ellipsis.mark : $0 }
    }

    /// "A", "A, B", "A, B, and 41 more": the first `shown` names, each `cut`, as lists of
    /// names were always written (comma-separated), and what is left out counted.
    private static func joined(_ names: [String], shown: Int, cut: (String) -> String) -> String {
        let named = names.prefix(max(shown, 0)).map(cut)
        let rest = names.count - named.count
        guard rest > 0 else { return named.joined(separator: ", ") }
        return (named + ["and \(rest) more"]).joined(separator: ", ")
    }

    /// The first of `candidates(shown)`, for `shown` from `most` down to 0, that fits `width`
    /// columns, else the last cut to `width` with "…"; the first when there is no width (a pipe:
    /// the bound on names is the bound on the line).
    static func fitted(width: Int?, most: Int, _ candidates: (Int) -> String) -> String {
        guard let width else { return candidates(most) }
        var line = ""
        for shown in stride(from: most, through: 0, by: -1) {
            line = candidates(shown)
            if TerminalWidth.of(line) <= width { return line }
        }
        return Ellipsis.fit(line, width: width, at: .end)
    }
}
