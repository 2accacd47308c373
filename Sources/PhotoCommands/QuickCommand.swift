import PhotoAPI

/// The most common command lines (`status`, `groups`, `list [GROUP] [--limit N]`, `find WORD…
/// [--limit N]`, `show ID…`, with the global flags that take no value), read without
/// ArgumentParser.
///
/// ArgumentParser finds a command's options by reflection, and each type it reflects on costs
/// a scan of every protocol conformance in the binary: about a third of `photoctl groups`'
/// whole run. A line that is not exactly one of these shapes (any other option, `--`, `help`,
/// a value ArgumentParser would refuse) is left to ArgumentParser, so its errors, help and
/// completions stay its own; a line read here runs the very code the parsed command runs.
struct QuickCommand {
    /// The global flags given.
    let global: GlobalSettings
    /// Whether the output for people goes through the pager (`PagedOutput`).
    let paged: Bool
    /// The command's work, with the global settings read from the line.
    private let work: @Sendable (GlobalSettings) async throws -> Void

    /// The command `arguments` (global options already after the command) ask for, nil when
    /// they are not one of the quick shapes.
    init?(_ arguments: [String]) {
        guard let name = arguments.first else { return nil }
        var global = GlobalSettings(callsOnCallingThread: true)
        var limit: Int?
        var positionals: [String] = []
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            switch argument {
            case "--json": global.json = true
            case "--full": global.full = true
            case "--no-legend": global.noLegend = true
            case "--no-pager": global.noPager = true
            case "--as-app": global.asApp = true
            case "--limit":
                guard limit == nil, let value = rest.popFirst().flatMap(Int.init), value >= 1 else { return nil }
                limit = value
            case "help": return nil
            default:
                guard !argument.hasPrefix("-") else { return nil }
                positionals.append(argument)
            }
        }
        guard let (paged, work) = Self.work(name, limit: limit, positionals) else { return nil }
        self.global = global
        self.paged = paged
        self.work = work
    }

    /// Runs the command.
    func run() async throws {
        try await work(global)
    }

    /// Whether command `name` pages, and its work, for these values; nil when it takes none of them.
    private static func work(
        _ name: String, limit: Int?, _ positionals: [String]
    ) -> (Bool, @Sendable (GlobalSettings) async throws -> Void)? {
        switch name {
        case "status" where limit == nil && positionals.isEmpty:
            return (true, { try await StatusCommand.show($0) })
        case "groups" where limit == nil && positionals.isEmpty:
            return (true, { try await GroupsCommand.show($0, format: .table) })
        case "list" where positionals.count <= 1:
            let group = positionals.first
            return (true, {
                try await ListCommand.list($0, group: group, rows: AssetRowStyle(),
                                           ListAssetsParameters(sort: .taken, limit: limit))
            })
        case "find" where !positionals.joined(separator: " ").allSatisfy(\.isWhitespace):
            let text = positionals.joined(separator: " ")
            return (false, { try await FindCommand.find($0, text: text, group: nil, limit: limit, rows: AssetRowStyle()) })
        case "show" where limit == nil && !positionals.isEmpty:
            return (true, { try await ShowCommand.show($0, ids: positionals) })
        default:
            return nil
        }
    }
}
