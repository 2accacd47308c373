import Foundation
import PhotoTestSupport
import Testing

/// `photoctl watch | head -1`: once the reader is gone, the next write ends photoctl quietly
/// with status 141 (as if killed by SIGPIPE, like cat or yes), with nothing on stderr.
/// Any other write failure (a full disk) is status 1 with a message, never a silent loss.
@Suite(.serialized) struct ClosedPipeTests {
    /// Runs `photoctl ARGS | head -1` and prints the line head got, then photoctl's exit status.
    static func pipeline(_ arguments: String, daemon: DaemonHarness, name: String) throws -> StreamingProcess {
        var environment = daemon.environment
        environment["PHOTOCTL"] = Binaries.photoctl
        let errors = daemon.dir.file(name + ".photoctl-stderr")
        return try StreamingProcess("/bin/bash", [
            "-c", "\"$PHOTOCTL\" \(arguments) 2>'\(errors)' | head -1; echo \"exit ${PIPESTATUS[0]}\"",
        ], environment: environment, directory: daemon.dir, name: name)
    }

    static func stderr(of name: String, in daemon: DaemonHarness) -> String {
        (try? String(contentsOfFile: daemon.dir.file(name + ".photoctl-stderr"), encoding: .utf8)) ?? "(none)"
    }

    @Test func watchEndsQuietlyWhenItsReaderIsGone() async throws {
        let daemon = try DaemonHarness()
        try await daemon.start()
        let run = try Self.pipeline("watch", daemon: daemon, name: "watch")
        await #expect(run.wait { $0.lines.count >= 1 }, "\(run.stderr)")
        #expect(run.lines.first?.hasPrefix("Watching photod") == true)
        // Each change makes photoctl write; once head has exited, the write finds the pipe closed.
        for index in 0..<5 where run.lines.count < 2 {
            try daemon.add("beach/\(index).jpg", Photo.jpeg("Beach"))
            _ = await run.wait(timeout: 4) { $0.lines.count >= 2 }
        }
        #expect(run.lines.last == "exit 141", "\(run.lines)")
        #expect(Self.stderr(of: "watch", in: daemon) == "")
    }

    @Test func permissionsWatchEndsQuietlyWhenItsReaderIsGone() async throws {
        let daemon = try DaemonHarness(trusted: [])
        try await daemon.start()
        let run = try Self.pipeline("permissions watch", daemon: daemon, name: "permissions")
        await #expect(run.wait { $0.lines.count >= 1 }, "\(run.stderr)")
        #expect(run.lines.first?.hasPrefix("Watching permission events") == true)
        let app = try PythonApp(socket: daemon.socket, directory: daemon.dir)
        let request = try app.stream(["request", "to make a slideshow"], name: "request")
        // Each decision is another event for photoctl to write, should head still be reading.
        for decision in ["deny", "reset", "deny", "reset"] where await !run.wait(timeout: 4, until: { $0.lines.count >= 2 }) {
            _ = try await daemon.photoctl(["permissions", decision, "viewer.py"])
        }
        #expect(run.lines.last == "exit 141", "\(run.lines)")
        #expect(Self.stderr(of: "permissions", in: daemon) == "")
        await request.kill()
    }

    @Test func jsonListingIntoAClosedPipeEndsTheSameWay() async throws {
        let daemon = try DaemonHarness()
        for index in 0..<40 { try daemon.add("beach/\(index).jpg", Photo.jpeg("Beach")) }
        try await daemon.start()
        // The reader closes its end at once: the first write already finds the pipe closed.
        var environment = daemon.environment
        environment["PHOTOCTL"] = Binaries.photoctl
        let result = try await ProcessRunner.run("/bin/bash", [
            "-c", "\"$PHOTOCTL\" --json list | (exec 0<&-; sleep 0.2); echo \"exit ${PIPESTATUS[0]}\"",
        ], environment: environment)
        #expect(result.stdout == "exit 141\n", "\(result.stdout)")
        #expect(result.stderr == "", "\(result.stderr)")
    }

    @Test func anOutputThatCannotBeWrittenIsAnErrorWithAMessage() async throws {
        let daemon = try DaemonHarness()
        try daemon.add("beach/1.jpg", Photo.jpeg("Beach"))
        try await daemon.start()
        var environment = daemon.environment
        environment["PHOTOCTL"] = Binaries.photoctl
        let result = try await ProcessRunner.run("/bin/bash", ["-c", "\"$PHOTOCTL\" --json list > /dev/full"],
                                           environment: environment)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("photoctl: cannot write the output:"), "\(result.stderr)")
        #expect(result.stderr.contains("No space left on device"))
    }
}
