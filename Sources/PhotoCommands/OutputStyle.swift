#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How output for people looks in this run: how wide a line may be, whether it is coloured and
/// whether tables have their header. Decided once, before a pager takes standard output, from
/// the options, the environment and the terminal, the way systemd's tools decide it.
struct OutputStyle: Sendable, Equatable {
    /// Terminal columns a table row may take; nil: no limit.
    var width: Int?
    /// Whether ANSI colours (bold headers, dim placeholders) are written.
    var colours: Bool
    /// Whether tables print their header line.
    var legend: Bool
    /// Whether a table's cells are padded so that its columns line up: on a terminal, or when
    /// `$COLUMNS` bounds the rows; never in a plain pipe, which would get every row as wide as
    /// the widest cell (a 4,000-character caption).
    var aligned = true
    /// Terminal columns a message on standard error may take before it is wrapped at a word
    /// boundary; nil: standard error is not a terminal, and messages keep their lines.
    var errorWidth: Int?

    /// Everything shown whole, no colours, no padding: what a pipe or a file gets.
    static let plain = OutputStyle(width: nil, colours: false, legend: true, aligned: false)

    /// The columns a terminal is assumed to have when it does not say (systemd does the same).
    static let fallbackColumns = 80

    /// The style for these options and this environment. The width limit is `$COLUMNS` when it
    /// is a positive number, else the terminal's width when standard output is one, else none
    /// (a pipe gets whole rows, as from systemctl); `--full` lifts it. Cells padded into
    /// columns only on a terminal or within a width. Colours only on a
    /// terminal, and never with `NO_COLOR` set (non-empty) or `TERM` unset or `dumb`.
    static func decide(full: Bool, legend: Bool, environment: [String: String], terminal: TerminalFacts) -> OutputStyle {
        var width: Int?
        if !full {
            if let columns = environment["COLUMNS"].flatMap(Int.init), columns > 0 {
                width = columns
            } else if terminal.outputIsTerminal {
                width = terminal.columns ?? fallbackColumns
            }
        }
        let colours = terminal.outputIsTerminal && (environment["NO_COLOR"] ?? "").isEmpty
            && !TerminalFacts.isDumb(environment)
        let given = environment["COLUMNS"].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil }
        let errorWidth = terminal.errorIsTerminal ? given ?? terminal.errorColumns ?? fallbackColumns : nil
        return OutputStyle(width: width, colours: colours, legend: legend, aligned: terminal.outputIsTerminal || width != nil,
                           errorWidth: errorWidth)
    }
}

/// What standard output and standard error are connected to, asked of the kernel once.
struct TerminalFacts: Sendable, Equatable {
    var outputIsTerminal: Bool
    var errorIsTerminal: Bool
    /// The terminal's width, nil when it is not a terminal or says 0.
    var columns: Int?
    /// Standard error's terminal's width, the same way.
    var errorColumns: Int?

    /// The facts of this process's standard output and standard error now.
    static func current() -> TerminalFacts {
        let output = isatty(STDOUT_FILENO) == 1
        let error = isatty(STDERR_FILENO) == 1
        return TerminalFacts(outputIsTerminal: output, errorIsTerminal: error,
                             columns: output ? width(of: STDOUT_FILENO) : nil,
                             errorColumns: error ? width(of: STDERR_FILENO) : nil)
    }

    /// The columns of the terminal `descriptor` is, nil when it does not say.
    static func width(of descriptor: Int32) -> Int? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// A terminal that cannot do more than print (systemd's terminal_is_dumb): `TERM` unset or `dumb`.
    static func isDumb(_ environment: [String: String]) -> Bool {
        guard let term = environment["TERM"] else { return true }
        return term == "dumb"
    }
}
