import ArgumentParser
import PhotoAPI
import PhotoClient

/// The `photoctl` command tree.
struct Photoctl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photoctl",
        abstract: "Ask photod about your photo library.",
        discussion: """
            Tables for people; --json for scripts. Exit status: 0 success, 1 an error from photod, \
            2 a usage error, 3 photod cannot be reached.
            """,
        subcommands: [StatusCommand.self, GroupsCommand.self, ListCommand.self, ShowCommand.self, RescanCommand.self,
                      WatchCommand.self, PermissionsCommand.self, RequestCommand.self])
}

/// Options every subcommand takes.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "photod's socket (default: $PHOTOD_SOCKET, else $XDG_RUNTIME_DIR/photod/io.photod).", valueName: "path"))
    var socket: String?

    @Flag(name: .long, help: "Print JSON for scripts instead of a table.")
    var json = false

    @Flag(name: .customLong("as-app"), help: ArgumentHelp(
        "Act as the program that ran photoctl: photod then shows it only what that program may see."))
    var asApp = false

    /// Connects to the daemon named by `--socket` or the defaults.
    func connect() async throws -> PhotoClient {
        try await PhotoClient.connect(socketPath: socket ?? DefaultPaths().socket)
    }
}
