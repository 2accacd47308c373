import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PhotoAPI

/// `photoctl permissions`: which apps may see the library, and the owner's answers.
struct PermissionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "permissions",
        abstract: "List apps and decide which may see your photo library.",
        discussion: """
            APP is an app id as the list shows it, or a whole component of it (the text between \
            / and :, such as calendar.sh, or a run of them such as bin/calendar.sh) that only one \
            app has; never a mere part of a name. Only the library's owner (photoctl installed \
            next to photod, or a program trusted in photod.toml) may list, allow, deny, reset or \
            remove.
            """,
        subcommands: [PermissionsListCommand.self, PermissionsShowCommand.self, PermissionsAllowCommand.self,
                      PermissionsDenyCommand.self, PermissionsResetCommand.self, PermissionsRemoveCommand.self,
                      PermissionsWatchCommand.self, PermissionsPromptCommand.self],
        defaultSubcommand: PermissionsListCommand.self)
}

/// How the permission commands show an app to a person.
enum AppText {
    /// "limited: groups Beach, Hike; 2 assets", or the status alone.
    static func access(_ app: App) -> String {
        guard app.status == .limited else { return app.status.rawValue }
        var parts: [String] = []
        if !app.groups.isEmpty { parts.append("groups " + app.groups.joined(separator: ", ")) }
        if app.fallback == true { parts.append("the photos without a description") }
        if !app.assets.isEmpty { parts.append("\(app.assets.count) asset\(app.assets.count == 1 ? "" : "s")") }
        return "limited: " + parts.joined(separator: "; ")
    }

    /// The app's id with the label it declared, which is shown but decides nothing. Raw text:
    /// `Output` escapes whatever an app chose (label, reason, a script's path) as it prints.
    static func name(_ app: App) -> String {
        guard let label = app.label, !label.isEmpty else { return id(app) }
        return "\"\(label)\" (\(id(app)))"
    }

    /// The app's id, with its user when that is not this one (photod as a system service).
    static func id(_ app: App) -> String {
        app.uid == Int(getuid()) ? app.id : "\(app.id) (uid \(app.uid))"
    }
}

/// The APP argument of the commands that decide about one app, and whose app it is.
struct AppArgument: ParsableArguments {
    @Argument(help: "The app: its id, or a whole component of it (calendar.sh) that only it has.",
              completion: LibraryCompletion.apps)
    var app: String
    @Option(name: .long, help: "Whose app, when apps of several users share the id (photod as a system service).")
    var uid: Int?
}

/// `photoctl permissions [list]`: every app photod knows.
struct PermissionsListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List every app photod knows, with its status, reason and selection.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let client = try await global.connect()
        let apps = try await client.listApps()
        await client.close()
        if global.json { return try Output.json(ListAppsReply(apps: apps)) }
        guard !apps.isEmpty else { return Output.line("No app has asked for the library yet.") }
        Output.table(["APP", "STATUS", "PENDING", "LABEL", "REASON"], apps.map { app in
            [AppText.id(app), AppText.access(app), app.pending ? "yes" : "", app.label ?? "", app.reason ?? ""]
        })
    }
}

/// `photoctl permissions deny APP`.
struct PermissionsDenyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deny", abstract: "Refuse an app; it is not allowed to ask again until reset.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var target: AppArgument

    func run() async throws {
        let client = try await global.connect()
        let decided = try await client.decide(app: target.app, uid: target.uid, status: .denied)
        await client.close()
        if global.json { return try Output.json(decided) }
        Output.line("\(AppText.id(decided)): denied")
    }
}

/// `photoctl permissions watch`: requests and decisions as they happen.
struct PermissionsWatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch", abstract: "Print requests and decisions as they happen (JSON lines with --json).")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let client = try await global.connect()
        if !global.json { Output.line("Watching permission events. Ctrl-C stops.") }
        for try await event in client.watchAuthorization() {
            if global.json {
                try Output.jsonLine(event)
            } else {
                let reason = event.kind == .requested ? ": " + (event.app.reason ?? "") : ""
                Output.line("\(event.kind.rawValue) \(AppText.name(event.app)) → \(AppText.access(event.app))\(reason)")
            }
        }
        await client.close()
    }
}
