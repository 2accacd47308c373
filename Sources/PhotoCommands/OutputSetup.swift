import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A command whose output for people is a table or a list that can run long: on a terminal it
/// goes through the pager. Streams (`watch`), prompts and one-line answers are not.
protocol PagedOutput {}

extension StatusCommand: PagedOutput {}
extension GroupsCommand: PagedOutput {}
extension ListCommand: PagedOutput {}
extension ShowCommand: PagedOutput {}
extension PermissionsListCommand: PagedOutput {}
extension PermissionsShowCommand: PagedOutput {}

/// Decides this run's output style and pager from the parsed command, before it runs.
enum OutputSetup {
    /// Configures `Output` for `command`: its global options (`--full`, `--no-legend`,
    /// `--no-pager`, `--json`), the environment and the terminal.
    static func configure(for command: ParsableCommand) {
        configure(global: globalOptions(of: command)?.settings, paged: command is PagedOutput)
    }

    /// Configures `Output` for a command with these global options (nil: it takes none) whose
    /// output for people is `paged` (see `PagedOutput`).
    static func configure(global: GlobalSettings?, paged: Bool) {
        let environment = StartEnvironment.variables
        let terminal = TerminalFacts.current()
        let style = OutputStyle.decide(full: global?.full ?? false, legend: !(global?.noLegend ?? false),
                                       environment: environment, terminal: terminal)
        let paged = paged && terminal.outputIsTerminal && global.map { !$0.json && !$0.noPager } ?? false
        let pager = paged ? Pager.command(environment: environment, elevated: Pager.isElevated) : nil
        Output.configure(style: style, pager: pager, pageErrors: terminal.errorIsTerminal)
    }

    /// Whether `command` connects as the library's owner to a photod of this user: not with
    /// --as-app, not `request` (which always asks as the program that ran it), and not to a
    /// photod serving other users (--service-user), to which every user's photoctl is an app.
    static func actsAsOwner(_ command: ParsableCommand) -> Bool {
        actsAsOwner(globalOptions(of: command)?.settings, isRequest: command is RequestCommand)
    }

    /// `actsAsOwner(_:)` for a command with these global options (nil: it takes none); `isRequest`: `request`.
    static func actsAsOwner(_ global: GlobalSettings?, isRequest: Bool) -> Bool {
        guard let global else { return false }
        let serviceUser = global.serviceUser ?? StartEnvironment.variables["PHOTOD_SERVICE_USER"] ?? ""
        return !global.asApp && !isRequest && serviceUser.isEmpty
    }

    /// The command's `@OptionGroup var global: GlobalOptions`, found by reflection so that
    /// every command that has one is configured without a line of its own.
    private static func globalOptions(of command: ParsableCommand) -> GlobalOptions? {
        for child in Mirror(reflecting: command).children {
            if let group = child.value as? OptionGroup<GlobalOptions> { return group.wrappedValue }
        }
        return nil
    }
}
