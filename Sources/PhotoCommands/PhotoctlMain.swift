import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PhotoClient

/// Runs photoctl and exits with its documented status: 0 success, 1 an error from the
/// daemon, 2 a usage error, 3 the daemon cannot be reached (or not safely) or stopped while
/// photoctl waited on it, 141 the output pipe closed.
public enum PhotoctlMain {
    /// Parses the process's arguments, runs the command, exits.
    public static func main() async -> Never {
        // Every write to a closed pipe then fails with EPIPE, which Output turns into a quiet
        // exit; SwiftNIO ignores the signal anyway once it opens a socket, so this makes the
        // behaviour the same before and after.
        signal(SIGPIPE, SIG_IGN)
        // The kernel's bytes, not CommandLine.arguments, which repairs a name that is not UTF-8.
        let status = await run(RawArguments.process())
        Output.endPaging()
        exit(status)
    }

    /// Parses and runs `arguments`; returns the exit status.
    public static func run(_ arguments: [String]) async -> Int32 {
        let hoisted = hoistingGlobalOptions(arguments)
        if let quick = QuickCommand(hoisted) {
            do {
                OutputSetup.configure(global: quick.global, paged: quick.paged)
                try await quick.run()
                return 0
            } catch {
                return status(after: error, actingAsOwner: OutputSetup.actsAsOwner(quick.global, isRequest: false),
                              hoisted)
            }
        }
        var parsed: ParsableCommand?
        do {
            var command = try Photoctl.parseAsRoot(hoisted)
            parsed = command
            OutputSetup.configure(for: command)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            return 0
        } catch {
            return status(after: error, actingAsOwner: parsed.map { OutputSetup.actsAsOwner($0) } ?? false, hoisted)
        }
    }

    /// Reports `error`, which ended the command line `hoisted`, and returns the exit status;
    /// `actingAsOwner` is asked only for photod's refusals.
    private static func status(after error: Error, actingAsOwner: @autoclosure () -> Bool, _ hoisted: [String]) -> Int32 {
        if let error = error as? PhotoClientError {
            let explained = CopiedClient.explanation(of: error, actingAsOwner: actingAsOwner()) ?? "photoctl: \(error)"
            Output.error(RemoteHost.naming(explained, for: error))
            switch error {
            case .unreachable, .untrustedSocket, .stopped, .remoteUnreachable: return 3
            case .daemon, .protocolFailure: break
            }
            return 1
        }
        let code = Photoctl.exitCode(for: error)
        let message = Photoctl.fullMessage(for: error)
        if code == .success {
            // The message of a clean exit is help, a version or a completion script.
            if !message.isEmpty { Output.help(BashCompletionQuoting.adjusted(withGlobalHelp(message, hoisted))) }
            return 0
        }
        if code == .validationFailure, let unknown = UnknownCommand.find(in: hoisted, root: Photoctl.self) {
            Output.error(unknown.description)
            return 2
        }
        if !message.isEmpty { Output.error(message) }
        // swift-argument-parser uses EX_USAGE (64) for usage errors; photoctl promises 2.
        return code == .validationFailure ? 2 : code.rawValue
    }

    /// `message` with the global options that apply when it is a command's help (ArgumentParser's
    /// help starts with OVERVIEW or USAGE; a version or a completion script is left as it is).
    private static func withGlobalHelp(_ message: String, _ arguments: [String]) -> String {
        guard message.hasPrefix("OVERVIEW:") || message.hasPrefix("USAGE:") else { return message }
        let command = GlobalHelp.command(in: arguments, root: Photoctl.self)
        let section = command == Photoctl.self ? GlobalHelp.rootSection : GlobalHelp.section(for: command)
        var trimmed = Substring(command == Photoctl.self ? message : GlobalHelp.strip(message))
        while trimmed.last == "\n" { trimmed = trimmed.dropLast() }
        return trimmed + "\n\n" + section.dropLast()
    }

    /// The global flags that take no value.
    private static let globalFlags: Set<String> = ["--json", "--as-app", "--full", "--no-legend", "--no-pager"]

    /// Moves the global flags, `--socket PATH`, `--service-user NAME` and `--host HOST` given before the subcommand to the end,
    /// so both `photoctl --json groups` (the design's original form) and `photoctl groups --json` work,
    /// also for nested commands (`photoctl --json permissions list`).
    static func hoistingGlobalOptions(_ arguments: [String]) -> [String] {
        var global: [String] = []
        var index = 0
        while index < arguments.count, arguments[index].hasPrefix("--") {
            let argument = arguments[index]
            if globalFlags.contains(argument) || argument.hasPrefix("--socket=")
                || argument.hasPrefix("--service-user=") || argument.hasPrefix("--host=") {
                global.append(argument)
            } else if argument == "--socket" || argument == "--service-user" || argument == "--host",
                      index + 1 < arguments.count {
                global += [argument, arguments[index + 1]]
                index += 1
            } else {
                break
            }
            index += 1
        }
        guard !global.isEmpty, index < arguments.count else { return arguments }
        return Array(arguments[index...]) + global
    }
}
