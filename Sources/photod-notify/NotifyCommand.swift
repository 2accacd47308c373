import ArgumentParser
import Logging
import PhotoAPI
import PhotoNotify
import ServiceLifecycle
import Systemd

/// `photod-notify`: desktop alerts for photod's permission requests. Parses flags, sets up the
/// log, runs the notifier.
@main
struct NotifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photod-notify",
        abstract: "Show photod's permission requests as desktop notifications with Allow, Deny and Choose….",
        discussion: """
            Runs in the graphical session (systemd --user: photod-notify.service) as an owner \
            client of photod. Without a session bus it logs why and exits 0; without a \
            notification server it keeps watching and tries again at the next request. Either \
            way requests can be answered with `photoctl permissions prompt`. See photod-notify(1).
            """,
        version: "photod-notify \(PhotodVersion.current)")

    @Option(name: .long, help: ArgumentHelp("photod's socket (default: $PHOTOD_SOCKET, else $XDG_RUNTIME_DIR/photod/io.photod).",
                                            valueName: "path"))
    var socket: String?

    @Option(name: .long, help: ArgumentHelp("trace, debug, info, notice, warning, error or critical.", valueName: "level"))
    var logLevel: String = "info"

    /// Refuses a log level swift-log does not know.
    func validate() throws {
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of " + Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))
        }
    }

    /// Logs to the journal (or standard error) and runs the notifier as the one service of a
    /// `ServiceGroup`, as photod runs its own: SIGTERM and SIGINT stop it gracefully.
    func run() async throws {
        let logger = ServiceLogging.bootstrap(label: "photod-notify", level: Logger.Level(rawValue: logLevel) ?? .info)
        let notifier = Notifier(socketPath: socket ?? DefaultPaths().socket, logger: logger)
        let group = ServiceGroup(configuration: .init(
            services: [.init(service: notifier, successTerminationBehavior: .gracefullyShutdownGroup)],
            gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }
}
