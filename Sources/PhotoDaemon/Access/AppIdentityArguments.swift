/// Finds what an interpreter runs from its arguments (after argv[0]).
enum AppIdentityArguments {
    /// Node options that take the next argument as their value when written without `=`.
    static let nodeValued: Set<String> = [
        "-r", "--require", "--import", "--loader", "--experimental-loader", "-C", "--conditions",
        "--env-file", "--input-type", "--title", "--inspect-port", "--debug-port", "--icu-data-dir",
        "--openssl-config", "--redirect-warnings", "--disable-warning",
    ]
    /// Node options that evaluate code given on the command line.
    static let nodeInline: Set<String> = ["-e", "--eval", "-p", "--print", "-pe"]

    /// Node: every argument starting with `-` is an option; a few take the next argument.
    static func node(_ arguments: ArraySlice<String>) -> AppIdentityInterpreter.Target {
        var rest = arguments
        while let argument = rest.popFirst() {
            if argument == "--" { return script(rest.first) }
            if argument == "-" { return .noScript }
            guard argument.hasPrefix("-") else { return script(argument) }
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            if nodeInline.contains(name) { return .noScript }
            if nodeValued.contains(argument) { _ = rest.popFirst() }
        }
        return .noScript
    }

    /// Interpreters with getopt-like short option clusters (`-uB`, `-Wall`, `-ec`).
    static func clustered(
        _ arguments: ArraySlice<String>, grammar: AppIdentityOptionGrammar
    ) -> AppIdentityInterpreter.Target {
        var rest = arguments
        while let argument = rest.popFirst() {
            if argument == "--" || (argument == "-" && grammar.dashEndsOptions) { return script(rest.first) }
            if argument == "-" { return .noScript }
            if argument.hasPrefix("--") {
                if grammar.valuedLong.contains(argument) { _ = rest.popFirst() }
                continue
            }
            let isOption = argument.hasPrefix("-") || (grammar.plusOptions && argument.hasPrefix("+"))
            guard isOption, argument.count > 1 else { return script(argument) }
            if let target = cluster(argument.dropFirst(), grammar: grammar, rest: &rest) { return target }
        }
        return .noScript
    }

    /// Walks one cluster of short options; a target when it decides what runs, nil to go on.
    private static func cluster(
        _ letters: Substring, grammar: AppIdentityOptionGrammar, rest: inout ArraySlice<String>
    ) -> AppIdentityInterpreter.Target? {
        var letters = letters
        while let letter = letters.popFirst() {
            if grammar.inline.contains(letter) { return .noScript }
            if grammar.module.contains(letter) {
                let name = letters.isEmpty ? rest.popFirst() : String(letters)
                guard let name, !name.isEmpty else { return .noScript }
                return .module(name)
            }
            if grammar.valued.contains(letter) {
                if letters.isEmpty { _ = rest.popFirst() }
                return nil
            }
            if grammar.attached.contains(letter) { return nil }
        }
        return nil
    }

    /// A script operand, or no script when it is missing or empty.
    private static func script(_ argument: String?) -> AppIdentityInterpreter.Target {
        guard let argument, !argument.isEmpty else { return .noScript }
        return .script(argument)
    }
}
