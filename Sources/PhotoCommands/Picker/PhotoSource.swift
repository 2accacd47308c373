/// Where the photos the picker lists come from: a group, or what a search found.
enum PhotoSource: Hashable, Sendable {
    /// A group by name; `fallback` for the group of photos without a description.
    case group(name: String, fallback: Bool)
    /// `photoctl find`'s words, in one group (by its label, as `find --group` takes it) or all.
    case search(text: String, group: String?)

    /// What the header calls it, raw (the renderer escapes it).
    var title: String {
        switch self {
        case .group(let name, let fallback): GroupLabel.text(name: name, fallback: fallback)
        case .search(let text, .none): "Photos matching \"\(text)\""
        case .search(let text, let group?): "Photos in \(group) matching \"\(text)\""
        }
    }
}

/// The search prompt's text read as `photoctl find` arguments, by find's own parser, so the
/// prompt takes exactly what the command takes (words, `--group NAME`).
enum SearchQuery {
    /// The source the prompt names, or the message find would give for it.
    static func source(from line: String) -> Result<PhotoSource, SearchQueryError> {
        do {
            let command = try FindCommand.parse(words(line))
            return .success(.search(text: command.text, group: command.group))
        } catch {
            return .failure(SearchQueryError(message: FindCommand.message(for: error)))
        }
    }

    /// The line split into words as a shell would: spaces part them, quotes keep them together
    /// (`--group "Summer trip" beach`), so a group name with spaces can be typed.
    static func words(_ line: String) -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        for character in line {
            if let open = quote {
                if character == open { quote = nil } else { word.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
                inWord = true
            } else if character.isWhitespace {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else {
                word.append(character)
                inWord = true
            }
        }
        if inWord { words.append(word) }
        return words
    }
}

/// Why the search prompt's text is no `find` (find's own message).
struct SearchQueryError: Error, Equatable {
    /// Find's message, raw.
    var message: String
}
