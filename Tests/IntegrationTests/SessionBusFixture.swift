import Foundation
import PhotoTestSupport

/// A private D-Bus session bus for one test: `dbus-daemon` with a config of its own (a socket in
/// the test's folder, no service files, so no real notification server is ever activated).
final class SessionBusFixture: @unchecked Sendable {
    let address: String
    let directory: TemporaryDirectory
    private let daemon: StreamingProcess

    /// Starts the bus and waits until it prints its address (it is then accepting connections).
    init(directory: TemporaryDirectory) async throws {
        self.directory = directory
        let socket = directory.file("session-bus")
        let config = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:path=\(socket)</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """
        let configFile = try directory.write("session-bus.conf", Array(config.utf8))
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon") else {
            throw FixtureError.missing("dbus-daemon is not installed; run scripts/install-deps --test")
        }
        daemon = try StreamingProcess("/usr/bin/dbus-daemon", ["--config-file=" + configFile, "--nofork", "--print-address"],
                                      directory: directory, name: "session-bus")
        guard await daemon.wait(timeout: 60, until: { !$0.lines.isEmpty }) else {
            throw FixtureError.missing("dbus-daemon did not start: \(daemon.stderr)")
        }
        address = "unix:path=" + socket
    }

    /// The environment that puts a program on this bus.
    var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": address] }

    /// Runs `dbus-send` on this bus.
    func send(_ arguments: [String]) async throws -> ProcessResult {
        try await ProcessRunner.run("/usr/bin/dbus-send", ["--bus=" + address] + arguments)
    }

}

/// A tool a test needs is not there, or did not start.
enum FixtureError: Error, CustomStringConvertible {
    case missing(String)

    var description: String {
        switch self {
        case .missing(let reason): reason
        }
    }
}
