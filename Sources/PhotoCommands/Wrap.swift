/// Long lines for people broken at word boundaries to fit a width, as `fmt` and systemd's
/// hints do: prose (a hint, a status line, a problem) reads whole instead of running off the
/// terminal or being cut.
enum Wrap {
    /// `escaped` (already escaped: no controls) as lines of at most `width` columns, broken at
    /// spaces; the lines after the first start with `indent` spaces. A word wider than a line is
    /// broken between its characters, never inside one or inside an escape.
    static func lines(_ escaped: String, width: Int, indent: Int = 0) -> [String] {
        guard TerminalWidth.of(escaped) > width else { return [escaped] }
        let indent = max(0, min(indent, width / 2))
        var lines: [String] = []
        var line = ""
        var used = 0
        /// The columns the line being filled may take.
        func room() -> Int { max(width - (lines.isEmpty ? 0 : indent), 1) }
        /// Ends the line being filled, indented when it is not the first.
        func finish() {
            lines.append((lines.isEmpty ? "" : String.spaces(indent)) + line)
            line = ""
            used = 0
        }
        for word in escaped.split(separator: " ", omittingEmptySubsequences: true) {
            var piece = String(word)
            var pieceWidth = TerminalWidth.of(piece)
            if used > 0 && used + 1 + pieceWidth > room() { finish() }
            // A word longer than a whole line goes in line-sized pieces.
            while pieceWidth > room() - used {
                let units = Ellipsis.units(of: piece)
                var head = Ellipsis.prefix(units, width: room() - used - (used > 0 ? 1 : 0))
                if head.isEmpty { head = units.first ?? "" }
                line += (used > 0 ? " " : "") + head
                finish()
                piece = String(piece[head.endIndex...])
                pieceWidth = TerminalWidth.of(piece)
            }
            guard !piece.isEmpty else { continue }
            line += (used > 0 ? " " : "") + piece
            used += (used > 0 ? 1 : 0) + pieceWidth
        }
        if used > 0 || lines.isEmpty { finish() }
        return lines
    }
}
