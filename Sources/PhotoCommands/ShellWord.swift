import ArgumentParser
import SafeText

/// Words between photoctl and the shells' completion scripts, both ways: what a person typed
/// comes in as the shell has it (quotes and backslashes included), and candidates go out
/// written so that the shell's script takes each as one literal word.
enum ShellWord {
    /// `word` as the shell will pass it on: quotes and backslash escapes removed. A word still
    /// being typed may end inside quotes; that is where its text ends.
    static func unquoted(_ word: String) -> String {
        var out = ""
        var quote: Character?
        var escaped = false
        for character in word {
            if escaped {
                // Inside double quotes, a backslash escapes only these; before anything else it stays.
                if quote == "\"", !"$`\"\\".contains(character) { out.append("\\") }
                out.append(character)
                escaped = false
            } else if character == "\\" && quote != "'" {
                escaped = true
            } else if quote == nil && (character == "'" || character == "\"") {
                quote = character
            } else if character == quote {
                quote = nil
            } else {
                out.append(character)
            }
        }
        return out
    }

    /// `candidates` as the script of `shell` reads them, one per line. A candidate with a
    /// character that could act on a terminal or end its line (a newline, a tab, ESC, a bidi
    /// override; `SafeText`) is left out: no shell could take it as one word, and its list
    /// would show it to the person choosing.
    static func formatted(_ candidates: [String], for shell: CompletionShell?) -> [String] {
        candidates.filter { !$0.unicodeScalars.contains { $0 != "\\" && SafeText.needsEscape($0) } }.map { candidate in
            switch shell {
            // bash's `compgen -W` expands each word (variables, $(…), ~) before it offers it:
            // single quotes keep the word literal.
            case .bash?: "'" + candidate.replacing("'", with: "'\\''") + "'"
            // zsh's `_describe` reads NAME:DESCRIPTION, with a backslash escaping a colon.
            case .zsh?: candidate.replacing("\\", with: "\\\\").replacing(":", with: "\\:")
            // fish takes each line as it is (a tab would start a description, and is left out above).
            default: candidate
            }
        }
    }
}
