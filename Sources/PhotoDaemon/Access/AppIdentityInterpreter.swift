/// An interpreter whose identity is refined by the script (or module) it runs.
enum AppIdentityInterpreter: Sendable, Equatable {
    case python, perl, ruby, node, shell

    /// What an interpreter's command line says it runs.
    enum Target: Sendable, Equatable {
        /// A script file, as written on the command line (maybe relative).
        case script(String)
        /// A module run by name (`python -m NAME`).
        case module(String)
        /// Code given inline (`-c`, `-e`), standard input or an interactive session: no script file.
        case noScript
    }

    /// The interpreter an executable is, by its basename (`python3.11`, `perl5.36.0`, `bash` …), or nil.
    init?(executable: String) {
        let name = executable.split(separator: "/").last.map(String.init) ?? executable
        if Self.isVersioned(name, base: "python") {
            self = .python
        } else if Self.isVersioned(name, base: "perl") {
            self = .perl
        } else if Self.isVersioned(name, base: "ruby") {
            self = .ruby
        } else if name == "node" || name == "nodejs" {
            self = .node
        } else if ["sh", "bash", "dash", "zsh"].contains(name) {
            self = .shell
        } else {
            return nil
        }
    }

    /// What the arguments after argv[0] run.
    func target(arguments: ArraySlice<String>) -> Target {
        switch self {
        case .node: return AppIdentityArguments.node(arguments)
        case .python: return AppIdentityArguments.clustered(arguments, grammar: .python)
        case .perl: return AppIdentityArguments.clustered(arguments, grammar: .perl)
        case .ruby: return AppIdentityArguments.clustered(arguments, grammar: .ruby)
        case .shell: return AppIdentityArguments.clustered(arguments, grammar: .shell)
        }
    }

    /// `base` followed only by version digits and dots (`python`, `python3`, `python3.11`).
    private static func isVersioned(_ name: String, base: String) -> Bool {
        guard name.hasPrefix(base) else { return false }
        return name.dropFirst(base.count).allSatisfy { $0 == "." || $0.isASCII && $0.isNumber }
    }
}
