import SafeText

extension Output {
    /// One column of a table: its title, whether it may shrink to fit the width, and which
    /// side its cells line up on.
    struct Column: Sendable {
        var title: String
        /// Whether its cells may be shortened ("…") when the table is too wide: long free text
        /// (paths, descriptions, group names), never ids, numbers or dates.
        var flexible: Bool
        /// Numbers line up on the right.
        var alignRight: Bool
        /// A flexible column that gives way only once the other flexible ones are at their
        /// floors: the one that tells rows apart (an app's id), not the free text beside it.
        var shrinksLast: Bool

        /// A column; by default flexible and left-aligned.
        init(_ title: String, flexible: Bool = true, alignRight: Bool = false, shrinksLast: Bool = false) {
            self.title = title
            self.flexible = flexible
            self.alignRight = alignRight
            self.shrinksLast = shrinksLast
        }
    }

    /// Prints rows under a header, in this run's style; every column may shrink.
    static func table(_ header: [String], _ rows: [[String]]) {
        table(header.map { Column($0) }, rows.map { $0.map(Cell.text) })
    }

    /// Prints rows of cells (a path as its bytes) under a header; every column may shrink.
    static func table(_ header: [String], _ rows: [[Cell]]) {
        table(header.map { Column($0) }, rows)
    }

    /// Prints rows of cells under their columns, in this run's style.
    static func table(_ columns: [Column], _ rows: [[Cell]]) {
        people(tableText(columns, rows, style: style))
    }

    /// Prints labelled values one per line, as hostnamectl and `systemctl status` do: each
    /// label right-aligned and followed by ": ", each value shortened to fit the width.
    static func fields(_ fields: [(String, Cell)]) {
        people(fieldsText(fields, style: style))
    }

    /// The text `table` prints for a header of plain titles (every column flexible).
    static func tableText(_ header: [String], _ rows: [[Cell]], style: OutputStyle = .plain) -> String {
        tableText(header.map { Column($0) }, rows, style: style)
    }

    /// The text `table` prints: every cell escaped, so it stays on its own row and in its own
    /// column; columns as wide as the terminal columns their cells take, flexible ones shrunk
    /// when the rows would be wider than the style allows; colours that take no column.
    static func tableText(_ columns: [Column], _ rows: [[Cell]], style: OutputStyle) -> String {
        let header = style.legend ? [columns.map { Cell.text($0.title) }] : []
        return layout(columns, header: header.count, rows: header + rows, separator: "  ", pad: style.aligned, style: style)
    }

    /// The text `fields` prints.
    static func fieldsText(_ fields: [(String, Cell)], style: OutputStyle) -> String {
        let columns = [Column("", flexible: false, alignRight: true), Column("")]
        // Padded everywhere: the labels are photoctl's own and short, so the padding is bounded.
        return layout(columns, header: 0, rows: fields.map { [.text($0.0 + ":"), $0.1] }, separator: " ", pad: true,
                      style: style)
    }

    /// Lays out `rows` (the first `header` of them titles, in bold on a terminal) in columns
    /// that fit the style's width; the last column is not padded unless it lines up right, and
    /// none is without `pad` (cells then follow each other, `separator` apart).
    private static func layout(_ columns: [Column], header: Int, rows: [[Cell]], separator: String, pad: Bool,
                               style: OutputStyle) -> String {
        let shown = rows.map { row in row.map(\.shown) }
        let measured = shown.map { row in row.map(TerminalWidth.of) }
        var natural = [Int](repeating: 0, count: columns.count)
        for row in measured {
            for (index, width) in row.enumerated() where index < columns.count {
                natural[index] = max(natural[index], width)
            }
        }
        let floors = columns.map { header > 0 ? TerminalWidth.of(SafeText.escaped($0.title)) : 0 }
        let separatorWidth = TerminalWidth.of(separator)
        var widths = ColumnFit.widths(natural: natural, floors: floors,
                                      flexible: columns.map { $0.flexible && !$0.shrinksLast },
                                      separator: separatorWidth, limit: style.width)
        if columns.contains(where: \.shrinksLast) {
            // The others gave what they could; the last ones give the rest, from what is left.
            widths = ColumnFit.widths(natural: widths, floors: floors, flexible: columns.map(\.flexible),
                                      separator: separatorWidth, limit: style.width)
        }
        var text = ""
        for (rowIndex, row) in rows.enumerated() {
            var line = ""
            for (index, cell) in row.enumerated() {
                if index > 0 { line += separator }
                var value = shown[rowIndex][index]
                var used = measured[rowIndex][index]
                let width = index < widths.count ? widths[index] : used
                if used > width {
                    value = Ellipsis.fit(value, width: width, at: cell.ellipsis)
                    used = TerminalWidth.of(value)
                }
                let padding = pad ? String.spaces(width - used) : ""
                let right = index < columns.count && columns[index].alignRight
                let painted = paint(value, header: rowIndex < header, missing: cell == .missing, style: style)
                if right {
                    line += padding + painted
                } else {
                    line += painted + (index < row.count - 1 ? padding : "")
                }
            }
            text += line + "\n"
        }
        return text
    }

    /// `value` (escaped, so nothing in it acts) wrapped in bold for a title or dim for a
    /// placeholder, on a terminal that takes colours.
    private static func paint(_ value: String, header: Bool, missing: Bool, style: OutputStyle) -> String {
        guard style.colours else { return value }
        if header { return ANSI.bold + value + ANSI.reset }
        if missing { return ANSI.dim + value + ANSI.reset }
        return value
    }
}

/// The few ANSI SGR sequences photoctl writes, only around its own text or escaped text.
enum ANSI {
    static let bold = "\u{1B}[1m"
    static let dim = "\u{1B}[2m"
    static let reset = "\u{1B}[0m"
}
