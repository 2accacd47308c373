/// The names nearest a mistyped one, for "did you mean" in photoctl's messages: photod's
/// suggestions (an unknown group) and photoctl's own (an unknown command) are said alike.
public enum DidYouMean {
    /// How many names a message offers at most.
    public static let maximumSuggestions = 3

    /// The names in `names` that `word` was likely meant to be, nearest first: those it begins
    /// (`perm` for `permissions`), then those a few edits away (a letter wrong, missing, extra, or
    /// two swapped: at most a third of the word, and at least two).
    public static func suggestions(for word: String, among names: [String]) -> [String] {
        let typed = Array(word.lowercased())
        guard !typed.isEmpty, typed.count <= 100 else { return [] }
        let allowed = max(2, typed.count / 3)
        var scored: [(distance: Int, name: String)] = []
        for name in names {
            let candidate = Array(name.lowercased())
            if typed.count >= 2 && candidate.starts(with: typed) {
                scored.append((0, name))
                continue
            }
            guard abs(candidate.count - typed.count) <= allowed else { continue }
            let distance = editDistance(typed, candidate)
            if distance <= allowed { scored.append((distance, name)) }
        }
        return scored.sorted { ($0.distance, $0.name) < ($1.distance, $1.name) }.prefix(maximumSuggestions).map(\.name)
    }

    /// The edits (insert, delete, substitute, or swap two neighbours) that turn `a` into `b`:
    /// the optimal string alignment distance, so "lsit" is one edit from "list".
    public static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }

    /// `; did you mean "A"?` (or `"A", "B" or "C"`), or ` (see `place`)` when `names` is empty.
    public static func phrase(_ names: [String], orSee place: String) -> String {
        guard let last = names.last else { return " (see `\(place)`)" }
        let quoted = names.dropLast().map { "\"\($0)\"" }
        return "; did you mean " + (quoted.isEmpty ? "" : quoted.joined(separator: ", ") + " or ") + "\"\(last)\"?"
    }
}
