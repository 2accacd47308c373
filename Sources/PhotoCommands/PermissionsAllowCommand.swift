import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PhotoAPI
import PhotoClient

/// `photoctl permissions allow APP`: everything, or a limited selection.
struct PermissionsAllowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "allow",
        abstract: "Let an app see the library, or with --limited only some groups or photos.",
        discussion: """
            Each --group and --asset must be in the library now; one that is not is an error that \
            names the closest ones. A --group is the group of that description; the fallback group \
            is --group with its label as `groups` shows it, "Other (no description)". An app id that \
            stands for more than one program (a shell or an interpreter without a script, such as \
            exe:/usr/bin/bash or exe:/usr/bin/python3) is allowed only after you confirm the warning \
            photoctl shows; --yes confirms it in scripts. --level add allows only adding photos \
            (photoctl import, an app's Import), which shows the app none of them.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var target: AppArgument
    @Flag(name: .long, help: "Only the groups and assets given.") var limited = false
    @Option(name: .customLong("group"), help: "A group the app may see (repeat for more); implies --limited.",
            completion: LibraryCompletion.groups)
    var groups: [String] = []
    @Option(name: .customLong("asset"), help: ArgumentHelp(
                "An asset id or photo file the app may see (repeat for more); implies --limited.", valueName: "id|path"),
            completion: LibraryCompletion.assets)
    var assets: [String] = []
    @Flag(name: .long, help: "Allow without asking, even an id that covers many programs (for scripts).")
    var yes = false
    @Option(name: .long, help: ArgumentHelp("The level allowed: read (see the library) or add (add photos only).",
                                            valueName: "read|add"))
    var level: LevelArgument = .read

    func validate() throws {
        if level == .add && (limited || !groups.isEmpty || !assets.isEmpty) {
            throw ValidationError("--level add has no selection: --limited, --group and --asset go with --level read")
        }
        if limited && groups.isEmpty && assets.isEmpty {
            throw ValidationError("--limited needs at least one --group or --asset")
        }
    }

    func run() async throws {
        let client = try await global.connect()
        let selective = limited || !groups.isEmpty || !assets.isEmpty
        let (names, fallback) = selective ? try await Self.selection(groups, client: client) : ([], false)
        let assets = try await AssetArguments.ids(of: assets, client: client)
        let decide = { (confirmed: Bool) async throws(PhotoClientError) -> App in
            try await client.decide(
                app: target.app, uid: target.uid, status: selective ? .limited : .authorized,
                assets: selective ? assets : nil, groups: selective ? names : nil, fallback: fallback ? true : nil,
                confirmed: confirmed ? true : nil, level: level.wireLevel)
        }
        let decided: App
        do {
            decided = try await decide(yes)
        } catch let error {
            guard let warning = WarningConfirmation.warning(in: error) else { throw error }
            guard await WarningConfirmation.confirm(app: warning.app, warning: warning.warning) else {
                await client.close()
                Output.error("photoctl: \(warning.app) was not allowed")
                throw ExitCode.failure
            }
            decided = try await decide(true)
        }
        await client.close()
        if global.json { return try Output.json(decided) }
        let access = level == .add ? "\(AccessLevel.addOnly.words): \(decided.addOnly?.status.rawValue ?? "authorized")"
            : AppText.access(decided)
        AppText.line("", decided, ": " + access)
    }
}

extension PermissionsAllowCommand {
    /// The --group values as Decide takes them: a value written as the fallback group's label
    /// (`GroupLabel`) is the fallback flag; every other value is a description group's name,
    /// which photod checks.
    static func selection(_ values: [String], client: PhotoClient) async throws(PhotoClientError)
        -> (names: [String], fallback: Bool) {
        guard values.contains(where: { GroupLabel.fallbackName(in: $0) != nil }) else { return (values, false) }
        let fallbackGroup = try await client.groups().first(where: \.fallback)
        var names: [String] = []
        var fallback = false
        for value in values {
            if let group = fallbackGroup, value == GroupLabel.text(group) {
                fallback = true
            } else {
                names.append(value)
            }
        }
        return (names, fallback)
    }
}

/// Asking the owner to confirm before allowing an app id that covers many programs.
enum WarningConfirmation {
    /// The daemon's `ConfirmationRequired` details, when `error` is that refusal.
    static func warning(in error: PhotoClientError) -> ConfirmationRequiredError? {
        guard case .daemon(let reply) = error, reply.name == AuthorizationInterface.Error.confirmationRequired else {
            return nil
        }
        return reply.parameters(ConfirmationRequiredError.self)
    }

    /// Shows the warning and asks for "yes" in the terminal; false without a terminal (the
    /// message then names --yes) or for any other answer.
    static func confirm(app: String, warning: String) async -> Bool {
        guard isatty(STDIN_FILENO) == 1 else {
            Output.error("photoctl: careful: \(app): \(warning).\nConfirm with --yes if that is what you want.")
            return false
        }
        Output.line("Careful: \(app): \(warning).")
        Terminal.discardTypedAhead()
        return await Terminal.confirm("Allow it anyway? Type yes to confirm: ") ?? false
    }
}
