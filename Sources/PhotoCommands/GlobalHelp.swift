import ArgumentParser

/// Where photoctl's help shows the global options: all of them once, in `photoctl --help`,
/// and in a command's help only those that change what that command does. ArgumentParser
/// repeats all seven in every command's usage and option list (they are declared once, in
/// `GlobalOptions`, and stay visible to it so that shell completion offers them): `strip`
/// takes them out of its help text.
enum GlobalHelp {
    /// One global option as help lists it.
    struct Option {
        let name: String
        let help: String
    }

    static let socket = Option(name: "--socket PATH",
                               help: "photod's socket (default: $PHOTOD_SOCKET, else $XDG_RUNTIME_DIR/photod/io.photod).")
    static let serviceUser = Option(name: "--service-user NAME",
                                    help: "Also accept photod running as this user (a system service; default: $PHOTOD_SERVICE_USER).")
    static let host = Option(name: "--host [USER@]HOST",
                             help: "Reach photod on another machine through `ssh HOST photoctl bridge` (default: $PHOTOD_HOST).")
    static let asApp = Option(name: "--as-app",
                              help: "Act as the program that ran photoctl: photod shows it only what that program may see.")
    static let json = Option(name: "--json", help: "Print JSON for scripts (the varlink reply's shape) instead of text for people.")
    static let full = Option(name: "--full", help: "Show every value whole, however wide the output gets.")
    static let noLegend = Option(name: "--no-legend", help: "Leave out tables' header lines.")
    static let noPager = Option(name: "--no-pager", help: "Do not send long output through $PAGER or less.")

    /// Every global option, in the order `photoctl --help` lists them.
    static let all = [socket, serviceUser, host, asApp, json, full, noLegend, noPager]

    /// The global options that change what `command` does, besides --socket, --service-user and
    /// --host, which every command that reaches photod takes.
    static func applying(to command: ParsableCommand.Type) -> [Option] {
        let paged = command is PagedOutput.Type
        switch command {
        case is StatusCommand.Type, is GroupsCommand.Type, is ListCommand.Type, is ShowCommand.Type, is FindCommand.Type:
            return [asApp, json, full, noLegend] + (paged ? [noPager] : [])
        case is PermissionsListCommand.Type, is PermissionsShowCommand.Type:
            return [json, full, noLegend, noPager]
        case is WatchCommand.Type:
            return [asApp, json, full]
        case is ThumbnailCommand.Type, is ImportCommand.Type, is DescribeCommand.Type:
            return [asApp, json]
        case is ExportCommand.Type, is OpenCommand.Type, is BridgeCommand.Type:
            return [asApp]
        case is PickCommand.Type:
            return [json, full, noLegend]
        case is RequestCommand.Type, is RescanCommand.Type, is ForgetCommand.Type, is PermissionsAllowCommand.Type,
             is PermissionsDenyCommand.Type, is PermissionsResetCommand.Type, is PermissionsRemoveCommand.Type,
             is PermissionsUnpickCommand.Type, is PermissionsWatchCommand.Type:
            return [json]
        default:
            return []
        }
    }

    /// How ArgumentParser writes each global option in a usage line and at the start of its
    /// entry in OPTIONS.
    private static let usageTokens = ["[--socket <path>]", "[--json]", "[--full]", "[--no-legend]", "[--no-pager]",
                                      "[--as-app]", "[--service-user <name>]", "[--host <[user@]host>]"]
    private static let entryStarts = ["  --socket <path>", "  --json ", "  --full ", "  --no-legend ", "  --no-pager ",
                                      "  --as-app ", "  --service-user <name>", "  --host <[user@]host>"]

    /// ArgumentParser's help of a command without the global options in its usage line and
    /// its OPTIONS (each entry with its continuation lines, which are indented further).
    static func strip(_ help: String) -> String {
        var kept: [Substring] = []
        var skipping = false
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            if skipping && line.hasPrefix("   ") { continue }
            skipping = entryStarts.contains { line.hasPrefix($0) }
            if skipping { continue }
            if line.hasPrefix("USAGE:") {
                var usage = String(line)
                for token in usageTokens {
                    usage = usage.replacing(" " + token, with: "")
                }
                kept.append(Substring(usage))
            } else {
                kept.append(line)
            }
        }
        return kept.joined(separator: "\n")
    }

    /// The section `photoctl --help` ends with: every global option, once.
    static var rootSection: String {
        "GLOBAL OPTIONS (any command, before or after its name):\n" + lines(all)
    }

    /// The lines a command's help ends with: the global options that apply to it, then a
    /// pointer to the rest.
    static func section(for command: ParsableCommand.Type) -> String {
        let options = applying(to: command)
        guard !options.isEmpty else { return "GLOBAL OPTIONS: --socket, --service-user, --host (see photoctl --help).\n" }
        return "GLOBAL OPTIONS (and --socket, --service-user, --host: see photoctl --help):\n" + lines(options)
    }

    /// The command `arguments` ask help for (`photoctl list --help`, `photoctl help list`,
    /// `photoctl permissions allow -h`): the deepest one their leading words name.
    static func command(in arguments: [String], root: ParsableCommand.Type) -> ParsableCommand.Type {
        var command = root
        for word in arguments where !word.hasPrefix("-") && word != "help" {
            let subcommands = command.configuration.subcommands
            guard let next = subcommands.first(where: { $0.configuration.commandName == word }) else { break }
            command = next
        }
        return command
    }

    /// Options as ArgumentParser lays them out: the name in a 26-column gutter, the help after,
    /// wrapped at 80 columns.
    private static func lines(_ options: [Option]) -> String {
        let gutter = 26
        let indent = String(repeating: " ", count: gutter)
        return options.map { option in
            let name = "  " + option.name
            let first = name.count < gutter ? name + String(repeating: " ", count: gutter - name.count) : name + "\n" + indent
            return first + wrapped(option.help, width: 80 - gutter).joined(separator: "\n" + indent) + "\n"
        }.joined()
    }

    /// `text` in lines of at most `width` characters, broken at spaces.
    static func wrapped(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        return lines + (line.isEmpty ? [] : [line])
    }
}
