import ArgumentParser
import PhotoAPI
import PhotoClient

/// The `photoctl` command tree.
struct Photoctl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photoctl",
        abstract: "Ask photod about your photo library.",
        discussion: """
            Tables for people; --json for scripts. Exit status: 0 success, 1 an error from photod \
            (find: no photo matched), 2 a usage error, 3 photod cannot be reached (or not safely), \
            141 the output pipe closed. `man photoctl` has every command and option.

            Examples:
              photoctl status
              photoctl list Holidays --since "2 weeks ago"
              photoctl find beach 2019 -0 | xargs -0 ls -l
              photoctl export --rename ~/Pictures/2019/*.jpg ~/Desktop/trip
              photoctl permissions prompt
            """,
        version: "photoctl \(PhotodVersion.current)",
        subcommands: [StatusCommand.self, GroupsCommand.self, ListCommand.self, ShowCommand.self, RescanCommand.self,
                      ForgetCommand.self,
                      WatchCommand.self, PermissionsCommand.self, RequestCommand.self, ThumbnailCommand.self,
                      ExportCommand.self, OpenCommand.self, ImportCommand.self, DescribeCommand.self,
                      FindCommand.self, PickCommand.self, BridgeCommand.self])
}

/// Options every subcommand takes. ArgumentParser would list all of them in every command's
/// help; `GlobalHelp` takes them out there and lists them once, and for each command those that apply.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "photod's socket (default: $PHOTOD_SOCKET, else $XDG_RUNTIME_DIR/photod/io.photod).", valueName: "path"))
    var socket: String?

    @Flag(name: .long, help: "Print JSON for scripts instead of a table.")
    var json = false

    @Flag(name: .long, help: "Show every value whole, however wide the table gets.")
    var full = false

    @Flag(name: .customLong("no-legend"), help: "Leave out tables' header lines.")
    var noLegend = false

    @Flag(name: .customLong("no-pager"), help: "Do not send long output through $PAGER or less.")
    var noPager = false

    @Flag(name: .customLong("as-app"), help: ArgumentHelp(
        "Act as the program that ran photoctl: photod then shows it only what that program may see."))
    var asApp = false

    @Option(name: .long, help: ArgumentHelp(
        "Reach photod on another machine, through `ssh [USER@]HOST photoctl bridge` (default: $PHOTOD_HOST).",
        valueName: "[user@]host"))
    var host: String?

    @Option(name: .customLong("service-user"), help: ArgumentHelp(
        "Also accept photod running as this user (a system service); default: $PHOTOD_SERVICE_USER.",
        valueName: "name"))
    var serviceUser: String?

    /// The parsed values, for code that runs with or without ArgumentParser (`QuickCommand`).
    var settings: GlobalSettings {
        GlobalSettings(socket: socket, json: json, full: full, noLegend: noLegend, noPager: noPager, asApp: asApp,
                       host: host, serviceUser: serviceUser)
    }

    /// Connects to photod as `GlobalSettings.connect` does.
    func connect(forCaller: Bool = false) async throws -> PhotoClient {
        try await settings.connect(forCaller: forCaller)
    }

    /// A client for originals, as `GlobalSettings.originals` makes one.
    func originals(forCaller: Bool = false) throws -> OriginalsClient {
        try settings.originals(forCaller: forCaller)
    }

    /// `photoctl bridge`'s socket, as `GlobalSettings.bridgeSocket` opens it.
    func bridgeSocket() throws -> Int32 {
        try settings.bridgeSocket()
    }

    /// `--host`, else `$PHOTOD_HOST`, as `GlobalSettings.remoteHost` reads them.
    var remoteHost: String? { settings.remoteHost }
}
