import ArgumentParser
import PhotoAPI

/// `photoctl groups`: every group with its count and newest photo.
struct GroupsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "groups", abstract: "List the groups.",
        discussion: """
            LATEST is the newest photo's capture time (taken), or the file's modification time in \
            local time (file) when it records none. The fallback group is shown as "NAME (no \
            description)", and list takes that label. Groups that differ only in case are pointed \
            out on standard error.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(name: .long, help: ArgumentHelp(
        "table: aligned columns for people; tsv: a header line (unless --no-legend), then one line per group "
            + "(name, count, fallback, latest, latestSource), fields separated by tabs, with tab, newline and "
            + "backslash in a value as \\t, \\n and \\\\.",
        valueName: "format"))
    var format: AssetRowFormat = .table

    func run() async throws {
        try await Self.show(global.settings, format: format)
    }

    /// Asks photod for the groups and prints them in `format` (or as JSON).
    static func show(_ global: GlobalSettings, format: AssetRowFormat) async throws {
        let client = try await global.connect()
        let reply = try await client.listGroups()
        await client.close()
        if global.json { return try Output.json(reply) }
        let groups = reply.groups
        if format == .tsv {
            Output.data(GroupsText.tsv(groups, header: Output.style.legend))
            return IndexingNote.show(reply.progress)
        }
        let latest = GroupsText.Latest()
        let columns = [Output.Column("GROUP"), Output.Column("PHOTOS", flexible: false, alignRight: true),
                       Output.Column("LATEST", flexible: false)]
        Output.table(columns, groups.map { group -> [Output.Cell] in
            [.text(GroupLabel.text(group)), .text(String(group.count)), .text(latest.text(group))]
        })
        if let hint = GroupsText.caseHint(GroupsText.caseVariants(groups),
                                          config: DefaultPaths(environment: StartEnvironment.variables).configFile) {
            Output.note(hint)
        }
        IndexingNote.show(reply.progress)
    }
}
