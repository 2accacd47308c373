import Foundation
import PhotoTestSupport
import Testing

/// An interactive shell in a private tmux server, typed at like a person: for what only a
/// shell at a terminal does (fish 3 gives a completion the cursor only in a real command line).
final class TmuxShell {
    /// The server's socket lives in a folder of its own, removed only after the server is ended.
    private let folder: TemporaryDirectory
    private let socket: String

    /// Starts `command` (a shell) on a 160×40 terminal, with exactly `environment` (plus TERM).
    init(_ command: [String], environment: [String: String]) async throws {
        folder = try TemporaryDirectory()
        socket = folder.file("tmux")
        let variables = environment.merging(["TERM": "xterm-256color"]) { _, new in new }.map { "\($0)=\($1)" }
        // The tmux server this starts lives on: it must hold none of the descriptors Foundation's
        // Process watches (the pipes, and the one it learns of a child's end through), or the
        // starting client is never seen to exit; Python's subprocess closes them for tmux. And
        // the test runner's children inherit its blocked signals: unblocked, so that the shell
        // and the server end on kill-server's hangup.
        let start = try await ProcessRunner.run("/usr/bin/python3", [
            "-c", "import signal, subprocess, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); "
                + "sys.exit(subprocess.run(sys.argv[1:], stdin=subprocess.DEVNULL, "
                + "stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode)",
            "/usr/bin/tmux", "-S", socket, "-f", "/dev/null", "new-session", "-d", "-x", "160", "-y", "40",
            "/usr/bin/env", "-i",
        ] + variables + command)
        guard start.status == 0 else { throw TmuxError.failed(command, "tmux new-session exited \(start.status)") }
    }

    /// Types `text` as it is (no key names).
    func type(_ text: String) async throws {
        try await tmux(["send-keys", "-l", text])
    }

    /// Presses keys by tmux's names: Tab, Enter, C-u.
    func press(_ keys: String...) async throws {
        try await tmux(["send-keys"] + keys)
    }

    /// What the terminal shows now, wrapped lines joined.
    var screen: String {
        get async { (try? await ProcessRunner.run("/usr/bin/tmux", ["-S", socket, "capture-pane", "-p", "-J"]).stdout) ?? "" }
    }

    /// Waits until the screen satisfies `condition`; the last screen either way.
    @discardableResult
    func wait(timeout: TimeInterval = 10, until condition: (String) -> Bool) async -> (satisfied: Bool, screen: String) {
        var shown = ""
        let satisfied = await eventually(within: timeout) {
            shown = await screen
            return condition(shown)
        }
        return (satisfied, shown)
    }

    /// Expects the screen to show `text` within 10 s; the failure names `context` and shows the screen.
    func expectScreen(containing text: String, _ context: String = "", sourceLocation: SourceLocation = #_sourceLocation) async {
        let shown = await wait { $0.contains(text) }
        #expect(shown.satisfied, "\(context.isEmpty ? "" : context + ": ")\(shown.screen)", sourceLocation: sourceLocation)
    }

    private func tmux(_ arguments: [String]) async throws {
        let result = try await ProcessRunner.run("/usr/bin/tmux", ["-S", socket] + arguments)
        guard result.status == 0 else { throw TmuxError.failed(arguments, result.stderr) }
    }

    deinit {
        // deinit cannot await: a task ends the server.
        // The folder holding its socket goes only after it, so the server can still be reached.
        let socket = socket
        let folder = folder
        Task {
            _ = try? await ProcessRunner.run("/usr/bin/tmux", ["-S", socket, "kill-server"])
            withExtendedLifetime(folder) {}
        }
    }
}

enum TmuxError: Error {
    case failed([String], String)
}
