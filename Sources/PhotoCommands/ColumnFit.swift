/// How wide each column of a table may be so that its rows fit a width limit.
///
/// The widest flexible columns give up columns first, down to a common width, so a
/// 4,000-column caption is cut before a path of 60 and a path before a short group name; fixed
/// columns (ids, numbers, dates) never shrink. A flexible column keeps at least its title's
/// width or `minimum`, whichever is more, so when even that does not fit the rows stay too
/// wide rather than becoming unreadable.
enum ColumnFit {
    /// Columns a flexible column keeps at least (fewer only when its widest cell is narrower).
    static let minimum = 8

    /// The widths to print: `natural` (each column's widest cell) when they fit in `limit`
    /// with `separator` columns between neighbours, or when there is no limit.
    static func widths(natural: [Int], floors: [Int], flexible: [Bool], separator: Int, limit: Int?) -> [Int] {
        guard let limit else { return natural }
        let total = natural.reduce(0, +) + separator * max(natural.count - 1, 0)
        let excess = total - limit
        guard excess > 0 else { return natural }
        let lowest = natural.indices.map { flexible[$0] ? min(natural[$0], max(floors[$0], minimum)) : natural[$0] }
        // The widest cap that still frees enough columns; none frees enough: everything at its floor.
        func freed(by cap: Int) -> Int {
            natural.indices.reduce(0) { $0 + natural[$1] - max(lowest[$1], min(natural[$1], cap)) }
        }
        guard freed(by: 0) > excess else { return lowest }
        var low = 0
        var high = natural.max() ?? 0
        while low < high {
            let cap = (low + high + 1) / 2
            if freed(by: cap) >= excess { low = cap } else { high = cap - 1 }
        }
        var widths = natural.indices.map { max(lowest[$0], min(natural[$0], low)) }
        // The cap may free a little more than needed; give it back, leftmost columns first.
        var spare = freed(by: low) - excess
        for index in widths.indices where spare > 0 && widths[index] == low && natural[index] > low {
            widths[index] += 1
            spare -= 1
        }
        return widths
    }
}
