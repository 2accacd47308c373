/// photoctl's bash completion script, as swift-argument-parser writes it, with the words it
/// offers quoted by photoctl rather than by readline. Readline's filename quoting (the script
/// registers with `-o filenames`) leaves a `$` and a leading `~` bare, so a group named `$HOME`
/// or `~root` was inserted as a word the shell expands (and, being a folder once expanded, got
/// a `/` added); no candidate photoctl writes can avoid it, so the script quotes them itself.
enum BashCompletionQuoting {
    /// How swift-argument-parser's script registers its completion function.
    static let registration = "complete -o filenames -F _photoctl photoctl"

    /// The function registered instead: it runs the generated one, turns readline's quoting and
    /// its folder test off for this completion (photoctl completes no file names: a name that
    /// expands to a folder got a `/`) and quotes each candidate for where the word stands (bare:
    /// `printf %q`; after an opening ' or ", for inside those quotes, closed).
    static let quotingFunction = #"""
        # photoctl: readline leaves a `$` and a leading `~` of a candidate bare, so the words are
        # quoted here, for the quotes the word being completed is in.
        _photoctl_quoted() {
            _photoctl "${@}"
            compopt -o noquote +o filenames 2>/dev/null
            local -r word="${COMP_WORDS[COMP_CWORD]}" closed="'\\''"
            local index text
            for index in "${!COMPREPLY[@]}"; do
                text="${COMPREPLY[index]}"
                case "${word}" in
                "'"*) COMPREPLY[index]="${text//"'"/"${closed}"}'" ;;
                '"'*)
                    text="${text//'\'/'\\'}"; text="${text//'$'/'\$'}"; text="${text//'`'/'\`'}"
                    COMPREPLY[index]="${text//'"'/'\"'}\"" ;;
                *) printf -v "COMPREPLY[index]" '%q' "${text}" ;;
                esac
            done
        }
        complete -o filenames -F _photoctl_quoted photoctl
        """#

    /// `script` with the quoting function registered in place of the generated one; any other
    /// text (another shell's script, a message) as it is.
    static func adjusted(_ script: String) -> String {
        guard script.contains(registration) else { return script }
        return script.replacing(registration, with: quotingFunction)
    }
}
