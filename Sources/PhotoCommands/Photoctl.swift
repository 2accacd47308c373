import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
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

    /// Connects to the daemon named by `--socket` or the defaults, trusting a server that runs
    /// as this user or as the service user. photod takes photoctl for the owner unless it acts
    /// for the program that ran it (`--as-app`, or `forCaller` for `photoctl request`).
    func connect(forCaller: Bool = false) async throws -> PhotoClient {
        if let remote = remoteHost {
            RemoteHost.note(remote)
            return try PhotoClient.connect(host: remote, remoteArguments: bridgeArguments(forCaller: forCaller),
                                           environment: ProcessInfo.processInfo.environment)
        }
        try ProcessRole.declare(asApp || forCaller ? .app : .owner)
        return try await PhotoClient.connect(socketPath: socket ?? DefaultPaths().socket, serviceUser: serviceUserID())
    }

    /// Connects a client for originals (file descriptors) to the same daemon, trusted and
    /// declared the same way as `connect`; over `--host`, one that receives originals as bytes.
    func originals(forCaller: Bool = false) throws -> OriginalsClient {
        if let remote = remoteHost {
            RemoteHost.note(remote)
            return try OriginalsClient.connect(host: remote, remoteArguments: bridgeArguments(forCaller: forCaller),
                                               environment: ProcessInfo.processInfo.environment)
        }
        try ProcessRole.declare(asApp || forCaller ? .app : .owner)
        return try OriginalsClient.connect(socketPath: socket ?? DefaultPaths().socket, serviceUser: serviceUserID())
    }

    /// `photoctl bridge`'s socket: photod's, found and trusted as `connect` finds it, with the
    /// role (`--as-app`) declared for photod to read from this process.
    func bridgeSocket() throws -> Int32 {
        try ProcessRole.declare(asApp ? .app : .owner)
        return try BridgeSocket.open(socketPath: socket ?? DefaultPaths().socket, serviceUser: serviceUserID())
    }

    /// `--host`, else `$PHOTOD_HOST`; nil (or empty): photod on this machine.
    var remoteHost: String? {
        let environment = ProcessInfo.processInfo.environment["PHOTOD_HOST"].flatMap { $0.isEmpty ? nil : $0 }
        return (host.flatMap { $0.isEmpty ? nil : $0 }) ?? environment
    }

    /// What the far side's photoctl runs: the bridge, acting as the app when this photoctl
    /// would (`--as-app`, `photoctl request`), so photod there sees the same role. The far
    /// side finds its own socket; `--socket` and `--service-user` name this machine's.
    private func bridgeArguments(forCaller: Bool) -> [String] {
        ["photoctl"] + (asApp || forCaller ? ["--as-app"] : []) + ["bridge"]
    }

    /// The uid of `--service-user` (else `$PHOTOD_SERVICE_USER`), nil when neither is given.
    private func serviceUserID() throws -> UInt32? {
        let environment = ProcessInfo.processInfo.environment["PHOTOD_SERVICE_USER"].flatMap { $0.isEmpty ? nil : $0 }
        guard let name = serviceUser ?? environment else { return nil }
        guard let uid = PhotoClient.userID(named: name) else {
            throw ValidationError("no user named \"\(name)\" (--service-user or PHOTOD_SERVICE_USER)")
        }
        return uid
    }
}
