import ArgumentParser
import PhotoClient

/// A word where photoctl expected a command (`photoctl lsit`, `photoctl permissions alow`):
/// said with the commands it was likely meant to be, in place of ArgumentParser's
/// "unexpected argument".
struct UnknownCommand: Error, Equatable, CustomStringConvertible {
    /// The commands before the word (`photoctl permissions`).
    let command: String
    let word: String
    let suggestions: [String]

    var description: String {
        "\(command): unknown command \"\(word)\""
            + DidYouMean.phrase(suggestions, orSee: "\(command) --help")
    }

    /// The first word of `arguments` that names none of the subcommands of the command before
    /// it, or nil when the words name commands up to the first option or argument.
    static func find(in arguments: [String], root: ParsableCommand.Type) -> UnknownCommand? {
        var command = root
        var path = [root.configuration.commandName ?? "photoctl"]
        for word in arguments {
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty, !word.hasPrefix("-") else { return nil }
            let names = subcommands.compactMap { $0.configuration.commandName }
            guard let index = names.firstIndex(of: word) else {
                // ArgumentParser's own: `photoctl help list`.
                if word == "help" { return nil }
                return UnknownCommand(command: path.joined(separator: " "), word: word,
                                      suggestions: DidYouMean.suggestions(for: word, among: names))
            }
            command = subcommands[index]
            path.append(word)
        }
        return nil
    }
}
