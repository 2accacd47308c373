/// How a path is shortened to a column: what tells photos apart is the file name, then the
/// folders nearest it (`…/2019/Trip/IMG_0001.jpg`), so the folders further up give way first.
extension Ellipsis {
    /// Columns a file name's extension may take and still be kept whole when the name is cut.
    static let longestExtension = 12

    /// `units` (an escaped path, too wide) in `width` columns, the first that fits of: what
    /// comes before the first "/" (an id's kind, "script:"), the mark, and the most whole
    /// trailing folders with the name; the mark and "/name"; the mark and the name; the name
    /// alone with its middle left out, its extension kept.
    static func fitPath(_ units: [Substring], width: Int) -> String {
        let slashes = units.indices.filter { units[$0] == "/" }
        guard let last = slashes.last else { return cutName(units[...], width: width) }
        let head = joined(units[..<(slashes.first ?? last)])
        let headWidth = TerminalWidth.of(String(head))
        // From the nearest folder outwards, the widest tail that fits after the head and the mark.
        for slash in slashes.dropFirst() {
            let tail = String(joined(units[slash...]))
            if headWidth + 1 + TerminalWidth.of(tail) <= width { return String(head) + mark + tail }
        }
        let name = units[(last + 1)...]
        let nameText = String(joined(name))
        let nameWidth = TerminalWidth.of(nameText)
        if nameWidth + 2 <= width { return mark + "/" + nameText }
        if nameWidth + 1 <= width { return mark + nameText }
        return cutName(name, width: width)
    }

    /// A file name in `width` columns: whole when it fits, else its middle left out, keeping
    /// its extension (".jpg") whole when that is short enough.
    private static func cutName(_ name: ArraySlice<Substring>, width: Int) -> String {
        let units = Array(name)
        guard TerminalWidth.of(String(joined(name))) > width else { return String(joined(name)) }
        var extensionWidth = 0
        if let dot = units.lastIndex(of: "."), dot > 0 {
            let suffix = TerminalWidth.of(String(joined(units[dot...])))
            if suffix <= longestExtension && suffix < width - 1 { extensionWidth = suffix }
        }
        return halves(units, width: max(width, 1), keepingEnd: extensionWidth)
    }
}
