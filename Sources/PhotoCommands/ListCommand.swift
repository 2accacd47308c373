import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PhotoAPI

/// `photoctl list [GROUP]`: the photos of one group, or all, page after page.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List photos, of one group or all.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: """
        The group to list (default: every photo); the fallback group as `groups` shows it, "Other (no description)".
        """, completion: LibraryCompletion.groups)
    var group: String?

    @Option(name: .long, parsing: .unconditional, help: "Stop after this many photos.")
    var limit: Int?

    @Option(name: .long, help: "Order: taken, path or modified.")
    var sort: AssetSort = .taken

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(
        "Only photos taken (else modified) from this day or time on: 2021-06-05, 2021-06-05T14:30[:00][Z|+02:00], "
            + "today, yesterday, now, \"2 weeks ago\", -3d.",
        valueName: "date"))
    var since: String?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(
        "Only photos taken (else modified) up to the end of this day or time (same forms as --since).",
        valueName: "date"))
    var until: String?

    @Flag(name: .long, help: "Reverse the order: newest first.")
    var reverse = false

    @OptionGroup var rows: AssetRowOptions

    func validate() throws {
        try rows.check(json: global.json)
        if let limit, limit < 1 { throw ValidationError("--limit must be 1 or more, not \(limit)") }
        let now = Int(time(nil))
        for (option, value) in [("--since", since), ("--until", until)] {
            if let value, DateArgument.resolve(value, now: now) == nil {
                throw ValidationError("\(option) \"\(value)\" is not a date: use \(DateArgument.forms)")
            }
        }
        if let start = bound(since, now: now).flatMap(DateArgument.span)?.start,
           let end = bound(until, now: now).flatMap(DateArgument.span)?.end, start >= end {
            throw ValidationError("--since \"\(since ?? "")\" is after --until \"\(until ?? "")\": no photo can be in that range")
        }
    }

    /// The parsed bound of a --since or --until value, relative ones resolved at `now`.
    private func bound(_ value: String?, now: Int) -> DateBound? {
        value.flatMap { DateArgument.resolve($0, now: now) }.flatMap(DateBound.init)
    }

    func run() async throws {
        // Relative dates are resolved once, so --since and --until read the same clock.
        let now = Int(time(nil))
        let since = since.flatMap { DateArgument.resolve($0, now: now) }
        let until = until.flatMap { DateArgument.resolve($0, now: now) }
        try await Self.list(global.settings, group: group, rows: rows.style,
                            ListAssetsParameters(sort: sort, limit: limit, since: since, until: until,
                                                 reverse: reverse ? true : nil))
    }

    /// Lists the photos `query` asks for (its group and fallback set from `group`, a label as
    /// `groups` prints it), page after page, printed as `rows` says (or as JSON).
    static func list(_ global: GlobalSettings, group: String?, rows: AssetRowStyle,
                     _ query: ListAssetsParameters) async throws {
        let client = try await global.connect()
        let pages = try await GroupLabel.resolving(group) { name, fallback in
            var asked = query
            asked.group = name
            asked.fallback = fallback
            return try await client.listAll(asked)
        }
        await client.close()
        if global.json { return try Output.json(ListAssetsReply(assets: pages.assets, cursor: nil, progress: pages.progress)) }
        rows.print(pages.assets)
        IndexingNote.show(pages.progress)
    }
}

extension AssetSort: ExpressibleByArgument {}
