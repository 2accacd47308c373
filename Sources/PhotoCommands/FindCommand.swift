import ArgumentParser
import PhotoAPI

/// `photoctl find TEXT…`: the photos whose description, file name, make or model holds every
/// word, ignoring case and accents, newest first (photod's `Search`).
struct FindCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "find",
        abstract: "Find photos by words in their description, file name, make or model.",
        discussion: """
            Every word must occur somewhere in those fields, as part of a word or whole, in any \
            order; case and accents do not matter ("cafe" finds "Café"). Newest first. Like grep, \
            the exit status is 1 when no photo matches (0 when one does).

            Examples:
              photoctl find beach 2019
              photoctl find --group Holidays --format tsv --fields path cafe
              photoctl find -0 --fields path sunset | xargs -0 ls -l
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Words to find.")
    var words: [String] = []

    @Option(name: .long, help: ArgumentHelp(
        "Only photos of this group (the fallback group as `groups` shows it, \"Other (no description)\").",
        valueName: "group"), completion: LibraryCompletion.groups)
    var group: String?

    @Option(name: .long, parsing: .unconditional, help: "Stop after this many photos.")
    var limit: Int?

    @OptionGroup var rows: AssetRowOptions

    /// The words as one Search text (the picker's search prompt reads it too).
    var text: String { words.joined(separator: " ") }

    func validate() throws {
        try rows.check(json: global.json)
        if text.allSatisfy(\.isWhitespace) { throw ValidationError("name at least one word to find") }
        if let limit, limit < 1 { throw ValidationError("--limit must be 1 or more, not \(limit)") }
    }

    func run() async throws {
        try await Self.find(global.settings, text: text, group: group, limit: limit, rows: rows.style)
    }

    /// Asks photod for the photos `text` finds (in `group`, a label as `groups` prints it, when
    /// given), printed as `rows` says (or as JSON); exits 1 when none match.
    static func find(_ global: GlobalSettings, text: String, group: String?, limit: Int?,
                     rows: AssetRowStyle) async throws {
        let client = try await global.connect()
        let pages = try await GroupLabel.resolving(group) { name, fallback in
            try await client.searchAll(SearchParameters(text: text, group: name, limit: limit, fallback: fallback))
        }
        await client.close()
        if global.json {
            try Output.json(SearchReply(assets: pages.assets, cursor: nil, progress: pages.progress))
        } else {
            rows.print(pages.assets, none: "No photos match \"\(text)\".")
            IndexingNote.show(pages.progress)
        }
        // As grep: a script can test for a match without reading the output.
        if pages.assets.isEmpty { throw ExitCode.failure }
    }
}
