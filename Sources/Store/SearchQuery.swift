/// What a search looks for: folded words, every one of which must occur in a photo's text
/// (description, file name, make, model) as a substring, in any order.
public struct SearchQuery: Sendable, Equatable {
    /// The folded words, longest first, none contained in another (it would add nothing).
    public let words: [String]

    /// Most words a query may keep once folded and deduplicated: each is one more index lookup.
    public static let maximumWords = 16

    /// The query for `text`, split at white space after folding; nil when nothing is left to
    /// look for (empty, only white space, or only marks that folding removes).
    public init?(_ text: String) {
        var words: [String] = []
        let candidates = SearchText.fold(text).split(separator: " ").map(String.init)
            .sorted { $0.unicodeScalars.count > $1.unicodeScalars.count }
        for word in candidates where !words.contains(where: { Self.scalars(of: $0, contain: word) }) {
            words.append(word)
        }
        guard !words.isEmpty else { return nil }
        self.words = words
    }

    /// Whether `word` occurs in `text`, scalar for scalar (as the index compares, not by Swift's
    /// grapheme rules).
    private static func scalars(of text: String, contain word: String) -> Bool {
        let haystack = Array(text.unicodeScalars), needle = Array(word.unicodeScalars)
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { start in
            haystack[start..<(start + needle.count)].elementsEqual(needle)
        }
    }

    /// Words of three characters or more, which the trigram index matches directly.
    var longWords: [String] { words.filter { $0.unicodeScalars.count >= 3 } }

    /// Words of two characters, found through the index terms that begin with them.
    var twoCharacterWords: [String] { words.filter { $0.unicodeScalars.count == 2 } }

    /// Words of one character: too common for the index to help; checked against each candidate's text.
    var oneCharacterWords: [String] { words.filter { $0.unicodeScalars.count == 1 } }

    /// `text` as an FTS5 string: in double quotes, a quote doubled, so that nothing a user types
    /// (`"`, `*`, `AND`, `NEAR(…)`, `column:`) is ever query syntax.
    static func quoted(_ text: String) -> String {
        "\"" + text.replacing("\"", with: "\"\"") + "\""
    }

    /// The first string after every string that begins with `prefix`: the prefix with its last
    /// scalar raised by one; nil when no such string exists (the last scalar is the largest).
    static func upperBound(ofPrefix prefix: String) -> String? {
        var scalars = Array(prefix.unicodeScalars)
        guard let last = scalars.popLast() else { return nil }
        var next = last.value + 1
        if next == 0xD800 { next = 0xE000 }
        guard let raised = Unicode.Scalar(next) else { return nil }
        scalars.append(raised)
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }
}
