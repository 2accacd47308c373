import ArgumentParser
import PhotoAPI
import PhotoClient

/// `photoctl permissions reset APP` or `--all`: forget decisions, so that apps may ask again.
struct PermissionsResetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Forget the decision about an app (or every app with --all), so that it may ask again.",
        discussion: """
            --all resets every app that was allowed, limited or denied; apps restricted by \
            photod.toml stay restricted, and apps keep their records (remove forgets those).
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The app: its id, or a whole component of it (calendar.sh) that only it has.",
              completion: LibraryCompletion.apps)
    var app: String?
    @Option(name: .long, help: "Whose app, when apps of several users share the id (photod as a system service).")
    var uid: Int?
    @Flag(name: .long, help: "Reset every decided app.") var all = false

    func validate() throws {
        if all && (app != nil || uid != nil) { throw ValidationError("--all resets every app; name no APP or --uid with it") }
        if !all && app == nil { throw ValidationError("name the APP to reset, or pass --all") }
    }

    func run() async throws {
        let client = try await global.connect()
        guard let app else { return try await resetAll(client) }
        let reset = try await client.reset(app: app, uid: uid)
        await client.close()
        if global.json { return try Output.json(reset) }
        Output.line("\(AppText.id(reset)): \(reset.status.rawValue); it may ask again")
    }

    /// Resets each decided app by its exact id and uid; the list printed is what was reset.
    private func resetAll(_ client: PhotoClient) async throws {
        let apps = try await client.listApps()
        let decided = apps.filter { [.authorized, .limited, .denied].contains($0.status) }
        var reset: [App] = []
        for app in decided {
            reset.append(try await client.reset(app: app.id, uid: app.uid))
        }
        await client.close()
        if global.json { return try Output.json(ListAppsReply(apps: reset)) }
        for app in reset { Output.line("\(AppText.id(app)): notDetermined; it may ask again") }
        let restricted = apps.filter { $0.status == .restricted }.count
        Output.line("Reset \(reset.count) app\(reset.count == 1 ? "" : "s")"
                    + (restricted > 0 ? "; \(restricted) restricted by photod.toml left as they are" : "") + ".")
    }
}
