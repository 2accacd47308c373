import ArgumentParser
import PhotoAPI
import PhotoClient

/// `photoctl permissions reset APP` or `--all`: forget decisions, so that apps may ask again.
struct PermissionsResetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Forget the decision about an app (or every app with --all), so that it may ask again.",
        discussion: """
            Both levels are reset (seeing the library, and adding photos only) unless --level \
            names one. --all resets every app that was allowed, limited or denied; apps \
            restricted by photod.toml stay restricted, and apps keep their records (remove \
            forgets those).
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The app: its id, or a whole component of it (calendar.sh) that only it has.",
              completion: LibraryCompletion.apps)
    var app: String?
    @Option(name: .long, parsing: .unconditional, help: "Whose app, when apps of several users share the id (photod as a system service).")
    var uid: Int?
    @Flag(name: .long, help: "Reset every decided app.") var all = false
    @Option(name: .long, help: ArgumentHelp("Reset only this level: read (see the library) or add (add photos only).",
                                            valueName: "read|add"))
    var level: LevelArgument?

    func validate() throws {
        if all && (app != nil || uid != nil) { throw ValidationError("--all resets every app; name no APP or --uid with it") }
        if !all && app == nil { throw ValidationError("name the APP to reset, or pass --all") }
        try AppArgument.check(uid: uid)
    }

    func run() async throws {
        let client = try await global.connect()
        guard let app else { return try await resetAll(client) }
        let reset = try await Self.reset(app, uid: uid, level: level, client: client)
        await client.close()
        if global.json { return try Output.json(reset) }
        AppText.line("", reset, ": \(AppText.accessWithAdding(reset)); it may ask again")
    }

    /// Resets `level`, or both levels: the add-only one only when it was ever asked or decided,
    /// so that an app that never asked to add hears of no reset it has no use for.
    static func reset(_ app: String, uid: Int?, level: LevelArgument?, client: PhotoClient) async throws(PhotoClientError)
        -> App {
        if let level { return try await client.reset(app: app, uid: uid, level: level.wireLevel) }
        let reset = try await client.reset(app: app, uid: uid)
        guard let add = reset.addOnly, add.status != .notDetermined || add.pending else { return reset }
        return try await client.reset(app: reset.id, uid: reset.uid, level: .addOnly)
    }

    /// Resets each decided app by its exact id and uid; the list printed is what was reset.
    private func resetAll(_ client: PhotoClient) async throws {
        let apps = try await client.listApps()
        let decided = apps.filter { app in
            let levels = level.map { [$0.accessLevel] } ?? AccessLevel.allCases
            return levels.contains { level in
                let status = level == .readWrite ? app.status : app.addOnly?.status ?? .notDetermined
                return [.authorized, .limited, .denied].contains(status)
            }
        }
        var reset: [App] = []
        for app in decided {
            reset.append(try await Self.reset(app.id, uid: app.uid, level: level, client: client))
        }
        await client.close()
        if global.json { return try Output.json(ListAppsReply(apps: reset)) }
        for app in reset { AppText.line("", app, ": \(AppText.accessWithAdding(app)); it may ask again") }
        let restricted = apps.filter { $0.status == .restricted }.count
        Output.line("Reset \(reset.count) app\(reset.count == 1 ? "" : "s")"
                    + (restricted > 0 ? "; \(restricted) restricted by photod.toml left as they are" : "") + ".")
    }
}
