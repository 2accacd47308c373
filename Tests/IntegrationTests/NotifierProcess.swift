import Foundation
import PhotoTestSupport

/// The built photod-notify, run against a test's photod and session bus.
final class NotifierProcess: @unchecked Sendable {
    static var executable: String { Binaries.productsFolder.appendingPathComponent("photod-notify").path }
    let process: StreamingProcess

    /// Starts photod-notify for `daemon` with `environment` on top (the bus, PATH).
    init(daemon: DaemonHarness, environment: [String: String], name: String = "photod-notify") throws {
        var env = daemon.environment
        env.merge(environment) { $1 }
        process = try StreamingProcess(Self.executable, ["--log-level", "debug"], environment: env,
                                       directory: daemon.dir, name: name)
    }

    /// What photod-notify logged so far.
    var log: String { process.stderr }

    /// Waits up to 60 s until its log contains `text`.
    func logContains(_ text: String) async -> Bool {
        await process.wait(timeout: 60) { $0.stderr.contains(text) }
    }

}

/// A test's photod with a session bus, the stand-in notification server and photod-notify, as
/// most notification tests need them.
struct NotifySetup {
    let daemon: DaemonHarness
    let bus: SessionBusFixture
    let server: NotificationServerFixture
    let notifier: NotifierProcess
    let app: PythonApp

    /// Starts everything; only photoctl and photod-notify are the owner (`trusted: []`), so a
    /// `python3 -c` app is an app like any other.
    init(actions: Bool = true, markup: Bool = true, path: String? = nil) async throws {
        daemon = try DaemonHarness(trusted: [])
        try daemon.add("beach/1.jpg", Photo.jpeg("Beach"))
        try await daemon.start()
        bus = try await SessionBusFixture(directory: daemon.dir)
        server = try await NotificationServerFixture(bus: bus, actions: actions, markup: markup)
        var environment = bus.environment
        if let path { environment["PATH"] = path }
        notifier = try NotifierProcess(daemon: daemon, environment: environment)
        app = try PythonApp(socket: daemon.socket, directory: daemon.dir)
    }

    /// The id of the first notification that mentions `text`, waiting for it up to 60 s.
    func notification(mentioning text: String) async -> Int? {
        _ = await server.wait { $0.notifications.contains { ($0["body"] as? String)?.contains(text) == true } }
        return server.notifications.first { ($0["body"] as? String)?.contains(text) == true }?["id"] as? Int
    }
}
