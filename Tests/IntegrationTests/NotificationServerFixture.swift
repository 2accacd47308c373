import Foundation
import PhotoTestSupport

/// The stand-in notification server (Tests/Scripts/notification_server.py) on a test's bus:
/// what photod-notify asked of it, and buttons pressed as a person would.
final class NotificationServerFixture: @unchecked Sendable {
    static let path = "/org/freedesktop/Notifications"
    static let control = "io.photod.Test.NotificationServer"
    let bus: SessionBusFixture
    private let record: String
    private let process: StreamingProcess

    /// The script, passed to python with -c so that nobody need read the checkout.
    static var source: String {
        let script = Binaries.repository.appendingPathComponent("Tests/Scripts/notification_server.py")
        return (try? String(contentsOf: script, encoding: .utf8)) ?? "raise SystemExit('notification_server.py is missing')"
    }

    /// Starts a server announcing `actions` and `body-markup` unless told not to, and waits
    /// until it owns org.freedesktop.Notifications.
    init(bus: SessionBusFixture, actions: Bool = true, markup: Bool = true, name: String = "notification-server") async throws {
        self.bus = bus
        record = bus.directory.file(name + ".jsonl")
        _ = FileManager.default.createFile(atPath: record, contents: nil)
        let options = (actions ? [] : ["--no-actions"]) + (markup ? [] : ["--no-markup"])
        // /usr/bin/python3: python3-dbus and python3-gi are Debian's, not pyenv's.
        process = try StreamingProcess("/usr/bin/python3", ["-c", Self.source, record] + options,
                                       environment: bus.environment, directory: bus.directory, name: name)
        guard await process.wait(timeout: 60, until: { $0.lines.contains("ready") }) else {
            throw FixtureError.missing("the stand-in notification server did not start (python3-dbus and python3-gi: "
                                       + "run scripts/install-deps --test): \(process.stderr)")
        }
    }

    /// Every call recorded so far, in order.
    var calls: [[String: Any]] {
        let text = (try? String(contentsOfFile: record, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// The Notify calls so far.
    var notifications: [[String: Any]] { calls.filter { $0["call"] as? String == "Notify" } }

    /// The ids CloseNotification was called with so far.
    var closed: [Int] { calls.filter { $0["call"] as? String == "CloseNotification" }.compactMap { $0["id"] as? Int } }

    /// Waits (up to 60 s: the tests share two cores with four other test processes) until `condition` holds.
    func wait(until condition: (NotificationServerFixture) -> Bool) async -> Bool {
        await eventually { condition(self) }
    }

    /// Presses the button `key` of notification `id`: ActionInvoked, then the server closes it.
    func invoke(_ id: Int, _ key: String) async throws {
        try await control("Invoke", ["uint32:\(id)", "string:\(key)"])
    }

    /// Closes notification `id` as the owner would.
    func dismiss(_ id: Int) async throws {
        try await control("Dismiss", ["uint32:\(id)"])
    }

    private func control(_ method: String, _ arguments: [String]) async throws {
        let result = try await bus.send(["--print-reply", "--dest=org.freedesktop.Notifications", Self.path,
                                   "\(Self.control).\(method)"] + arguments)
        guard result.status == 0 else { throw FixtureError.missing("dbus-send \(method): \(result.stderr)") }
    }

    /// Ends the server at once, as a crash or a restart would.
    func kill() async { await process.kill() }

}
