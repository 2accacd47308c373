import ArgumentParser
import PhotoAPI

/// `photoctl list [GROUP]`: the photos of one group, or all, page after page.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List photos, of one group or all.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: """
        The group to list (default: every photo); the fallback group as `groups` shows it, "Other (no description)".
        """, completion: LibraryCompletion.groups)
    var group: String?

    @Option(name: .long, help: "Stop after this many photos.")
    var limit: Int?

    @Option(name: .long, help: "Order: taken, path or modified.")
    var sort: AssetSort = .taken

    @Option(name: .long, help: ArgumentHelp(
        "Only photos taken (else modified) from this day or time on: 2021-06-05, 2021-06-05T14:30[:00][Z|+02:00].",
        valueName: "date"))
    var since: String?

    @Option(name: .long, help: ArgumentHelp(
        "Only photos taken (else modified) up to the end of this day or time (same forms as --since).",
        valueName: "date"))
    var until: String?

    @Flag(name: .long, help: "Reverse the order: newest first.")
    var reverse = false

    @OptionGroup var rows: AssetRowOptions

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
        for (option, value) in [("--since", since), ("--until", until)] {
            if let value, DateBound(value) == nil {
                throw ValidationError("\(option) \"\(value)\" is not a date: use \(DateBound.forms)")
            }
        }
    }

    func run() async throws {
        let client = try await global.connect()
        let pages = try await GroupLabel.resolving(group) { name, fallback in
            try await client.listAll(ListAssetsParameters(group: name, sort: sort, limit: limit, fallback: fallback,
                                                          since: since, until: until, reverse: reverse ? true : nil))
        }
        await client.close()
        if global.json { return try Output.json(ListAssetsReply(assets: pages.assets, cursor: nil, progress: pages.progress)) }
        rows.print(pages.assets)
        IndexingNote.show(pages.progress)
    }
}

extension AssetSort: ExpressibleByArgument {}
