import ArgumentParser
import Logging
import PhotoAPI
import PhotoDaemon

/// `photod`: the photo-library daemon. Parses flags, loads the config, runs the daemon.
@main
struct PhotodCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photod",
        abstract: "Index photo folders by their EXIF description and serve the library over varlink.",
        discussion: """
            Flags override the config file ($XDG_CONFIG_HOME/photod/photod.toml), which overrides the \
            built-in defaults. A bad config exits with status 78 (EX_CONFIG); an index another photod \
            is using, with status 75 (EX_TEMPFAIL).
            """,
        version: "photod \(PhotodVersion.current)")

    @Option(name: .long, help: ArgumentHelp("Config file to read instead of the default.", valueName: "file"))
    var config: String?

    @Option(name: .long, help: ArgumentHelp("A folder to index (repeat for more); replaces the config's roots.",
                                            valueName: "dir"))
    var root: [String] = []

    @Option(name: .long, help: ArgumentHelp("The index database file.", valueName: "file"))
    var database: String?

    @Option(name: .long, help: ArgumentHelp("The socket to bind when systemd passes none.", valueName: "path"))
    var socket: String?

    @Option(name: .long, help: ArgumentHelp("trace, debug, info, notice, warning, error or critical.",
                                            valueName: "level"))
    var logLevel: String?

    func run() async throws {
        ProcessMemory.tuneForDaemon()
        ProcessMemory.yieldAppWork()
        var level: Logger.Level?
        if let logLevel {
            guard let parsed = Logger.Level(rawValue: logLevel) else {
                throw ValidationError("--log-level must be one of "
                                      + Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))
            }
            level = parsed
        }
        let overrides = DaemonOverrides(configFile: config, roots: root, database: database, socket: socket,
                                        logLevel: level)
        let loaded: DaemonConfig
        do {
            loaded = try ConfigLoader().load(overrides)
        } catch {
            printError("photod: bad config: \(error)")
            throw ExitCode(78)
        }
        let logger = DaemonLogging.bootstrap(level: loaded.logLevel)
        do {
            try await Daemon(config: loaded, logger: logger, reloadConfig: { try ConfigLoader().load(overrides) }).run()
        } catch {
            logger.critical("photod cannot run: \(error)")
            throw ExitCode(Daemon.exitStatus(for: error))
        }
    }
}
