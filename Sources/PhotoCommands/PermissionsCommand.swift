import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PhotoAPI
import SafeText

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
                      PermissionsUnpickCommand.self, PermissionsWatchCommand.self, PermissionsPromptCommand.self],
        defaultSubcommand: PermissionsListCommand.self)
}

/// How the permission commands show an app to a person.
enum AppText {
    /// The add-only level in words ("authorized", "asked", "denied"), or "" when never asked.
    static func adding(_ app: App) -> String {
        guard let add = app.addOnly else { return "" }
        if add.pending { return "asked" }
        return add.status == .notDetermined ? "" : add.status.rawValue
    }

    /// `access(app)`, then the add-only level when it was ever asked or decided.
    static func accessWithAdding(_ app: App) -> String {
        let adding = adding(app)
        return adding.isEmpty ? access(app) : "\(access(app)); \(AccessLevel.addOnly.words): \(adding)"
    }

    /// Groups `access` names before it counts the rest.
    static let namedGroups = 5

    /// "limited: groups Beach and Hike; 2 assets", or the status alone; at most `namedGroups`
    /// groups named, each cut to `BoundedList.nameWidth`, so the line stays bounded.
    static func access(_ app: App) -> String {
        guard app.status == .limited else { return app.status.rawValue }
        var parts: [String] = []
        if !app.groups.isEmpty { parts.append("groups " + BoundedList.raw(app.groups, shown: namedGroups)) }
        if app.fallback == true { parts.append("the photos without a description") }
        if !app.assets.isEmpty { parts.append("\(app.assets.count) asset\(app.assets.count == 1 ? "" : "s")") }
        return "limited: " + parts.joined(separator: "; ")
    }

    /// The app's id, then the label it declared, which is shown but decides nothing, set apart
    /// (`SafeText.quoted`), so a label cannot pass for another app's id. Already escaped: print
    /// it with `Output.people`, never through `Output.line`.
    static func name(_ app: App) -> String {
        let id = SafeText.escaped(id(app))
        guard let label = app.label, !label.isEmpty else { return id }
        return "\(id) (calls itself \(SafeText.quoted(label)))"
    }

    /// One line for people holding `name(app)`: `before` and `after` are escaped, the name is already.
    /// Wrapped at word boundaries to the terminal's width, as prose is.
    static func line(_ before: String, _ app: App, _ after: String) {
        Output.paragraph(escaped: lineText(before, app, after))
    }

    /// The text of `line`, escaped, without its newline.
    static func lineText(_ before: String, _ app: App, _ after: String) -> String {
        SafeText.escaped(before) + name(app) + SafeText.escaped(after)
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
    @Option(name: .long, parsing: .unconditional, help: "Whose app, when apps of several users share the id (photod as a system service).")
    var uid: Int?

    func validate() throws {
        try Self.check(uid: uid)
    }

    /// Refuses a --uid no user can have (a negative number, or past 32 bits) before photod is asked.
    static func check(uid: Int?) throws {
        if let uid, !(0..<Int(UInt32.max)).contains(uid) {
            throw ValidationError("--uid is a user id, 0 to \(UInt32.max - 1), not \(uid)")
        }
    }
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
        Output.people(Self.tableText(apps, style: Output.style))
    }

    /// The table of `apps`: when it is too wide, the label and reason (which the apps chose)
    /// and the status give way before the id, and the id loses its middle, never the script
    /// or program name at its end, which is what tells apps apart.
    static func tableText(_ apps: [App], style: OutputStyle) -> String {
        let columns = [Output.Column("APP", shrinksLast: true), Output.Column("STATUS"),
                       Output.Column("ADD ONLY", flexible: false), Output.Column("PENDING", flexible: false),
                       Output.Column("LABEL"), Output.Column("REASON")]
        return Output.tableText(columns, apps.map { app in
            [Output.Cell.identifier(AppText.id(app)), .text(AppText.access(app)), .text(AppText.adding(app)),
             .text(app.pending ? "yes" : ""), .text(app.label ?? ""), .text(app.reason ?? app.addOnly?.reason ?? "")]
        }, style: style)
    }
}

/// `photoctl permissions deny APP`.
struct PermissionsDenyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deny", abstract: "Refuse an app; it is not allowed to ask again until reset.",
        discussion: "--level add refuses only adding photos; what the app may see stays as it is.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var target: AppArgument
    @Option(name: .long, help: ArgumentHelp("The level refused: read (see the library) or add (add photos only).",
                                            valueName: "read|add"))
    var level: LevelArgument = .read

    func run() async throws {
        let client = try await global.connect()
        let decided = try await client.decide(app: target.app, uid: target.uid, status: .denied, level: level.wireLevel)
        await client.close()
        if global.json { return try Output.json(decided) }
        AppText.line("", decided, level == .add ? ": \(AccessLevel.addOnly.words): denied" : ": denied")
    }
}

/// `photoctl permissions watch`: requests and decisions as they happen, a line each that fits
/// the terminal (an app limited to many groups names a few and counts the rest).
struct PermissionsWatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch", abstract: "Print requests and decisions as they happen (JSON lines with --json).")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let client = try await global.connect()
        if !global.json { Output.line("Watching permission events. Ctrl-C stops.") }
        // Events are not kept: there is nothing to resume from, only a new watch.
        try await StreamEnd.reportingStop(resume: { nil }) {
            for try await event in client.watchAuthorization() {
                if global.json {
                    try Output.jsonLine(event)
                } else {
                    Self.print(event)
                }
            }
        }
        await client.close()
    }

    /// One line of `AppText.line`, its end cut to the terminal's width when it is wider.
    private static func line(_ before: String, _ app: App, _ after: String) {
        Output.fitted(escaped: AppText.lineText(before, app, after))
    }

    /// One event as a line for people.
    static func print(_ event: AuthorizationEventReply.Event) {
        if let change = event.change {
            let ended = event.kind == .changeEnded ? " → \(ChangeText.ended(event.answer))" : ""
            line("\(event.kind.rawValue) ", event.app, ": \(ChangeText.what(change))\(ended)")
        } else if let pick = event.pick {
            let ended = event.kind == .pickEnded
                ? " → " + (event.answer == .allowed ? "picked \(event.picked ?? 0)" : event.answer?.rawValue ?? "ended") : ""
            line("\(event.kind.rawValue) ", event.app, ": up to \(pick.limit): \(pick.reason)\(ended)")
        } else {
            let adding = event.level == .addOnly
            let reason = event.kind == .requested ? ": " + ((adding ? event.app.addOnly?.reason : event.app.reason) ?? "") : ""
            let access = adding ? "\(AccessLevel.addOnly.words): \(event.app.addOnly?.status.rawValue ?? "notDetermined")"
                : AppText.access(event.app)
            line("\(event.kind.rawValue) ", event.app, " → \(access)\(reason)")
        }
    }
}
