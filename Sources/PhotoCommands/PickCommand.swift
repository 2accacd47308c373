import ArgumentParser
import PhotoAPI
import PhotoClient
import SafeText

/// `photoctl pick`: the apps waiting for the owner to pick photos for them; for scripts,
/// `--app APP ID|PATH…` answers one and `--app APP --cancel` cancels it.
struct PickCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pick",
        abstract: "List apps waiting for you to pick photos; answer one with --app APP ID|PATH… or --cancel.",
        discussion: """
            An app asks with io.photod.Library.Pick; it sees nothing of the library while you \
            choose, and gets only the photos you name, in the order named (at most the limit it \
            asked for). They stay readable by that app (by id only: it can never list them) until \
            photoctl permissions unpick or reset. Without photos or --cancel, in a terminal, pick \
            opens the picker for each waiting pick (the one of --app only), oldest first: browse \
            groups, search with the find syntax (/), mark with Space up to the app's limit, confirm \
            with c; q or Esc cancels that app's pick. Elsewhere, or with --list, it lists the \
            waiting picks and exits. An argument with a / in it, or naming a file that exists, is \
            a path; any other is an asset id.
            """)

    @OptionGroup var global: GlobalOptions
    @Option(name: .long, help: ArgumentHelp("The app whose pick to answer: its id, or a whole component of it.",
                                            valueName: "app"), completion: LibraryCompletion.apps)
    var app: String?
    @Option(name: .long, parsing: .unconditional, help: "Whose app, when apps of several users share the id.")
    var uid: Int?
    @Flag(name: .long, help: "Cancel the app's pick: it gets no photos.")
    var cancel = false
    @Argument(help: ArgumentHelp("The photos to give the app, by asset id or file.", valueName: "id|path"),
              completion: LibraryCompletion.assets)
    var photos: [String] = []
    @Flag(name: .long, help: "List the waiting picks even in a terminal, without opening the picker.")
    var list = false

    func validate() throws {
        if (cancel || !photos.isEmpty) && app == nil { throw ValidationError("name the app whose pick to answer with --app") }
        if cancel && !photos.isEmpty { throw ValidationError("give photos or --cancel, not both") }
        if list && (cancel || !photos.isEmpty) { throw ValidationError("--list answers nothing: drop it, or the photos") }
        try AppArgument.check(uid: uid)
    }

    func run() async throws {
        let client = try await global.connect()
        let waiting = try await client.listPicks()
        guard let app, cancel || !photos.isEmpty else {
            let shown = app.map { query in waiting.filter { Self.matches($0.app, query, uid: uid) } } ?? waiting
            if !list && !global.json && !shown.isEmpty && Self.inTerminal {
                do {
                    try await chooseInteractively(shown, using: client)
                } catch {
                    await client.close()
                    throw error
                }
                return await client.close()
            }
            await client.close()
            if global.json { return try Output.json(ListPicksReply(picks: shown)) }
            guard !shown.isEmpty else { return Output.line("No app is waiting for you to pick photos.") }
            return Output.people(Self.tableText(shown, style: Output.style))
        }
        let matching = waiting.filter { Self.matches($0.app, app, uid: uid) }
        guard matching.count == 1, let pick = matching.first else {
            await client.close()
            let ids = matching.map { AppText.id($0.app) }.joined(separator: ", ")
            Output.error(matching.isEmpty ? "photoctl: no pick of \(app) waits (photoctl pick lists them)"
                         : "photoctl: \(app) matches several waiting picks: \(ids); give the whole id or --uid")
            throw ExitCode.failure
        }
        let ids = cancel ? nil : try await AssetArguments.ids(of: photos, client: client)
        let reply = try await client.answerPick(pick.id, ids: ids, cancel: cancel)
        await client.close()
        if global.json { return try Output.json(reply) }
        let count = reply.ids.count
        AppText.line("", reply.pick.app, reply.answer == .allowed
                     ? ": picked \(count) photo\(count == 1 ? "" : "s")" : ": pick cancelled")
    }

    /// Whether `app` is the one the owner named: its whole id, or a whole component of it (the
    /// text between / and :), of user `uid` when given.
    static func matches(_ app: App, _ query: String, uid: Int?) -> Bool {
        if let uid, app.uid != uid { return false }
        let components = app.id.split(whereSeparator: { $0 == "/" || $0 == ":" }).map(String.init)
        return app.id == query || components.contains(query)
    }

    /// The waiting picks as a table; everything in it but the limit is the app's text, which
    /// `Output` escapes.
    static func tableText(_ picks: [PickRequest], style: OutputStyle) -> String {
        let columns = [Output.Column("APP", shrinksLast: true), Output.Column("LIMIT", flexible: false),
                       Output.Column("LABEL"), Output.Column("GROUPS"), Output.Column("REASON")]
        return Output.tableText(columns, picks.map { pick in
            [Output.Cell.identifier(AppText.id(pick.app)), .text("\(pick.limit)"), .text(pick.label ?? ""),
             .text(pick.groups.joined(separator: ", ")), .text(pick.reason)]
        }, style: style)
    }
}
