import PhotoAPI
import SafeText

/// The picker's rows as text that fits: every field from a photo or an app escaped
/// (`SafeText`), then cut to the columns it has (`Ellipsis`), paths keeping their file name.
enum PickerRows {
    /// Columns between two fields of a row.
    static let gap = 2

    /// One group: its label, how many photos and the newest date.
    static func group(_ group: Group, current: Bool, width: Int) -> String {
        let count = group.count == 1 ? "1 photo" : "\(group.count) photos"
        let latest = group.latest.map { "  " + SafeText.escaped(HumanFormat.taken($0)) } ?? ""
        let tail = "  (\(count))" + latest
        let name = SafeText.escaped(GroupLabel.text(group))
        let room = max(width - 2 - TerminalWidth.of(tail), 1)
        return fit((current ? "> " : "  ") + Ellipsis.fit(name, width: room, at: .end) + tail, width: width)
    }

    /// Photos, one row each, in columns that line up across the page: `leading` is each row's
    /// first field ("[x]" or its place in the summary), the cursor row marked with ">".
    static func photos(_ assets: ArraySlice<Asset>, leading: (Asset, Int) -> String, cursor: Int?,
                       width: Int) -> [String] {
        let cells: [[String]] = assets.indices.map { index in
            let asset = assets[index]
            return [
                (index == cursor ? ">" : " ") + leading(asset, index),
                SafeText.escaped(asset.path),
                SafeText.escaped(HumanFormat.taken(asset.taken ?? asset.modified)),
                SafeText.escaped(GroupLabel.text(name: asset.group, fallback: asset.fallback ?? false)),
                HumanFormat.size(asset.size),
            ]
        }
        guard let first = cells.first else { return [] }
        let natural = first.indices.map { column in cells.map { TerminalWidth.of($0[column]) }.max() ?? 0 }
        let flexible = [false, true, false, true, false]
        let widths = ColumnFit.widths(natural: natural, floors: [0, 12, 0, 8, 0], flexible: flexible,
                                      separator: gap, limit: width)
        return cells.map { row in
            let fitted = row.indices.map { column -> String in
                let position: Ellipsis.Position = column == 1 ? .path : .end
                let cut = Ellipsis.fit(row[column], width: widths[column], at: position)
                // Sizes line up on the right, as in `list`; the rest on the left.
                let padding = String(repeating: " ", count: max(widths[column] - TerminalWidth.of(cut), 0))
                return column == 4 ? padding + cut : cut + padding
            }
            return fit(fitted.joined(separator: String(repeating: " ", count: gap)), width: width)
        }
    }

    /// `escaped` cut to `width` columns (a table at its floors may still be too wide).
    static func fit(_ escaped: String, width: Int) -> String {
        var line = Ellipsis.fit(escaped, width: width, at: .end)
        while line.last == " " { line.removeLast() }
        return line
    }
}
