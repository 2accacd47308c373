import Foundation
import PhotoTestSupport

/// An X server of its own for one test (`Xvfb`, on the first free display it finds).
final class XvfbFixture: @unchecked Sendable {
    let display: String
    private let server: StreamingProcess

    /// Starts Xvfb and waits until it says which display it took (it accepts clients then).
    init(directory: TemporaryDirectory) async throws {
        // -displayfd 1: Xvfb picks a free display and writes its number to standard output when ready.
        server = try StreamingProcess("/usr/bin/Xvfb", ["-displayfd", "1", "-screen", "0", "800x600x24", "-nolisten", "tcp"],
                                      directory: directory, name: "xvfb")
        guard await server.wait(timeout: 60, until: { !$0.lines.isEmpty }), let number = server.lines.first.flatMap({ Int($0) })
        else { throw FixtureError.missing("Xvfb did not start: \(server.stderr)") }
        display = ":\(number)"
    }

}

/// Debian's real dunst as the session's notification server, on an Xvfb display, with a
/// dunstrc of the test's whose `dmenu` is a stand-in that picks the menu line with "Allow".
final class DunstFixture: @unchecked Sendable {
    /// Where the stand-in dmenu copies the context menu it was shown.
    let menuInput: String
    private let bus: SessionBusFixture
    private let dunst: StreamingProcess

    /// Whether the programs are installed (scripts/install-deps --test installs them).
    static var installed: Bool {
        ["/usr/bin/dunst", "/usr/bin/dunstctl", "/usr/bin/Xvfb"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Starts dunst on `display` and `bus`, and waits until it answers dunstctl.
    init(bus: SessionBusFixture, display: XvfbFixture) async throws {
        self.bus = bus
        let directory = bus.directory
        menuInput = directory.file("dmenu-input")
        let dmenu = try directory.write("dmenu", Array("#!/bin/sh\ntee \(menuInput) | grep -m1 Allow\n".utf8))
        chmod(dmenu, 0o755)
        let config = try directory.write("dunstrc", Array("""
            [global]
                dmenu = \(dmenu)
                browser = /bin/true
                show_indicators = no
            """.utf8))
        var environment = bus.environment
        environment["DISPLAY"] = display.display
        environment["WAYLAND_DISPLAY"] = ""
        dunst = try StreamingProcess("/usr/bin/dunst", ["-config", config], environment: environment,
                                     directory: directory, name: "dunst")
        guard await eventually({ await (try? count()) != nil }) else { throw FixtureError.missing("dunst did not start: \(dunst.stderr)") }
    }

    /// `dunstctl count displayed`: the notifications on the screen now.
    func count() async throws -> Int {
        let result = try await ctl(["count", "displayed"])
        guard result.status == 0, let count = Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw FixtureError.missing("dunstctl count: \(result.stderr)")
        }
        return count
    }

    /// Waits up to 60 s until `count()` is `expected`.
    func waitForCount(_ expected: Int) async -> Bool {
        await eventually { await (try? count()) == expected }
    }

    /// Runs dunstctl on the test's bus.
    func ctl(_ arguments: [String]) async throws -> ProcessResult {
        try await ProcessRunner.run("/usr/bin/dunstctl", arguments, environment: bus.environment)
    }

    /// What dunst wrote to standard error, for failure messages.
    var log: String { dunst.stderr }

}
