/// How an interpreter spells its options, just enough to find the script operand after them.
struct AppIdentityOptionGrammar: Sendable {
    /// Short options taking a value, attached (`-Wall`) or as the next argument (`-W all`).
    var valued: Set<Character> = []
    /// Short options whose optional value can only be attached (`perl -l0`, `ruby -i.bak`).
    var attached: Set<Character> = []
    /// Short options meaning there is no script file (inline code such as `-c`, `-e`; or stdin).
    var inline: Set<Character> = []
    /// Short options whose value names a module to run (`python -m NAME`).
    var module: Set<Character> = []
    /// Long options taking the next argument as their value when written without `=`.
    var valuedLong: Set<String> = []
    /// Whether `+x` is an option too, as in shells.
    var plusOptions = false
    /// Whether a lone `-` ends the options (shells) instead of meaning "read standard input".
    var dashEndsOptions = false

    /// CPython 3: `python [-bBdEhiIOPqsSuvVWx?] [-c cmd | -m mod | file | -] [args]`.
    static let python = AppIdentityOptionGrammar(
        valued: ["W", "X"], inline: ["c"], module: ["m"], valuedLong: ["--check-hash-based-pycs"]
    )

    /// Perl 5 (perlrun): `-e`/`-E` give code; most value options take the rest of the argument.
    /// `-0` and `-l` take digits only, which read harmlessly as further flags (`-l0e` is `-l0 -e`).
    static let perl = AppIdentityOptionGrammar(
        valued: ["I"], attached: ["C", "d", "D", "F", "i", "m", "M", "V", "x"], inline: ["e", "E"]
    )

    /// Ruby: `-e` gives code; `-C`, `-E`, `-I`, `-r` take a value; `--enable feature` and friends too.
    static let ruby = AppIdentityOptionGrammar(
        valued: ["C", "E", "I", "r"], attached: ["F", "i", "K", "T", "W", "x"], inline: ["e"],
        valuedLong: [
            "--enable", "--disable", "--encoding", "--external-encoding", "--internal-encoding",
            "--dump", "--backtrace-limit", "--crash-report",
        ]
    )

    /// POSIX sh, bash, dash, zsh: `-c` runs a string and `-s` reads standard input; `-o`/`-O` take a value.
    static let shell = AppIdentityOptionGrammar(
        valued: ["o", "O"], inline: ["c", "s"], valuedLong: ["--rcfile", "--init-file"],
        plusOptions: true, dashEndsOptions: true
    )
}
