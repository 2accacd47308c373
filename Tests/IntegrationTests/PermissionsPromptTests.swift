import Foundation
import PhotoTestSupport
import Testing

/// The owner's side in a terminal (`permissions prompt` on a pseudo-terminal), and a shell
/// script acting as an app through `photoctl request` and `--as-app`.
@Suite(.serialized) struct PermissionsPromptTests {
    /// Runs `photoctl permissions prompt --once` (or the arguments in `PROMPT_ARGS`, one per
    /// line) on a pty and answers like a person would: each answer once its text appears after
    /// the previous one. With `TYPE_AHEAD` set, types it as soon as the prompt waits, before
    /// anything is asked, and prints "typed ahead". Prints what the terminal showed, with plain
    /// newlines.
    static let terminal = """
        import os, pty, select, sys, time
        photoctl, answers = sys.argv[1], sys.argv[2:]
        ahead = os.environ.get("TYPE_AHEAD")
        arguments = os.environ.get("PROMPT_ARGS", "permissions\\nprompt\\n--once").split("\\n")
        pid, fd = pty.fork()
        if pid == 0:
            os.execv(photoctl, [photoctl] + arguments)
        seen = b""
        start = 0
        def until(text):
            global seen, start
            deadline = time.time() + 15
            while text.encode() not in seen[start:]:
                ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.time()))
                if not ready:
                    sys.exit("no %r on the terminal; it shows: %r" % (text, seen))
                try:
                    data = os.read(fd, 4096)
                except OSError:
                    data = b""
                if not data:
                    sys.exit("the terminal closed before %r; it shows: %r" % (text, seen))
                seen += data
            start = seen.index(text.encode(), start) + len(text.encode())
        if ahead:
            until("Waiting for apps")
            os.write(fd, ahead.encode() + b"\\n")
            print("typed ahead", flush=True)
        for i in range(0, len(answers), 2):
            until(answers[i])
            os.write(fd, answers[i + 1].encode() + b"\\n")
        # Everything the program writes until it closes the terminal (EIO once it exited): one
        # read after waitpid could take only part of its last lines.
        deadline = time.time() + 15
        while time.time() < deadline:
            ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.time()))
            if not ready:
                break
            try:
                data = os.read(fd, 4096)
            except OSError:
                break
            if not data:
                break
            seen += data
        _, status = os.waitpid(pid, 0)
        sys.stdout.write(seen.decode(errors="replace").replace("\\r\\n", "\\n") + "\\n")
        sys.exit(os.waitstatus_to_exitcode(status))
        """

    /// Runs `terminal` on photoctl against `daemon` with `steps` (text to wait for, answer to
    /// type, in pairs) and `extra` in the environment (`PROMPT_ARGS`, `TYPE_AHEAD`).
    static func prompt(_ daemon: DaemonHarness, _ steps: [String], _ extra: [String: String] = [:]) async throws -> ProcessResult {
        let helper = try daemon.dir.write("terminal.py", Array(terminal.utf8))
        return try await ProcessRunner.run("/usr/bin/env", ["python3", helper, Binaries.photoctl] + steps,
                                           environment: daemon.environment.merging(extra) { $1 })
    }

    /// A Python app that has asked `daemon` for the library, "to make a slideshow", and waits.
    static func waitingApp(_ daemon: DaemonHarness) async throws -> (app: PythonApp, request: StreamingProcess) {
        let app = try PythonApp(socket: daemon.socket, directory: daemon.dir)
        let request = try app.stream(["request", "to make a slideshow"], name: "request")
        await #expect(request.wait { $0.objects.count >= 1 }, "\(request.stderr)")
        return (app, request)
    }

    /// What the terminal showed with each wrapped line joined again: a line break followed by
    /// the two spaces that indent a wrapped line's rest is the one space it was.
    static func unwrapped(_ screen: String) -> String {
        screen.replacingOccurrences(of: "\n  ", with: " ")
    }

    @Test func theOwnerAnswersInTheTerminalAndTheAppSeesTheChosenGroup() async throws {
        let daemon = try DaemonHarness(trusted: [])
        try daemon.add("beach/1.jpg", Photo.jpeg("Beach"))
        try daemon.add("hike/2.jpg", Photo.jpeg("Hike"))
        try await daemon.start()
        let (app, request) = try await Self.waitingApp(daemon)
        let prompt = try await Self.prompt(daemon, [
            "[a]llow / [l]imited / [d]eny / [s]kip", "maybe",
            "Answer a, l, d or s.", "l",
            "Groups to share", "Beach",
        ])
        #expect(prompt.status == 0, "\(prompt.stdout)\n\(prompt.stderr)")
        // Long lines are wrapped at the terminal's width, their later lines indented.
        let shown = Self.unwrapped(prompt.stdout)
        #expect(shown.contains("Allow script:"), "\(prompt.stdout)")
        #expect(shown.contains(" (calls itself \"Test Viewer\") to see your photo library?"), "\(prompt.stdout)")
        #expect(shown.contains("Reason: to make a slideshow"))
        #expect(shown.contains("1) Beach (1)") && shown.contains("2) Hike (1)"))
        #expect(shown.contains("limited: groups Beach"))

        await #expect(request.exitStatus() == 0)
        #expect(request.objects.last?["status"] as? String == "limited")
        let groups = try #require(try await app.call("io.photod.Library.ListGroups")["groups"] as? [[String: Any]])
        #expect(groups.map { $0["name"] as? String } == ["Beach"])
    }

    @Test func aLabelPosingAsAnotherAppIsShownAfterTheRealIDQuotedShortAndVisible() async throws {
        let daemon = try DaemonHarness(trusted: [])
        try await daemon.start()
        let app = try PythonApp(socket: daemon.socket, directory: daemon.dir)
        let impostor = "GNOME Photos\" (app:org.gnome.Photos) to see your photo library?"
            + String(repeating: "\u{2800}", count: 40)
        // 185 bytes: within the 200 a label may have, so the request is made.
        #expect(impostor.utf8.count <= 200)
        let request = try app.stream(["request", "to make a slideshow", impostor], name: "request")
        await #expect(request.wait { $0.objects.count >= 1 }, "\(request.stderr)")

        let helper = try daemon.dir.write("terminal.py", Array(Self.terminal.utf8))
        let prompt = try await ProcessRunner.run("/usr/bin/env", [
            "python3", helper, Binaries.photoctl, "[a]llow / [l]imited / [d]eny / [s]kip", "s",
        ], environment: daemon.environment)
        #expect(prompt.status == 0, "\(prompt.stdout)\n\(prompt.stderr)")
        let line = try #require(Self.unwrapped(prompt.stdout).split(separator: "\n").first { $0.hasPrefix("Allow ") },
                                "\(prompt.stdout)")
        #expect(await line == "Allow \(try app.appID) (calls itself \"GNOME Photos\\\" (app:org.gnome.Pho…\") to see your photo library?")
        #expect(!prompt.stdout.contains("\u{2800}"))
    }

    @Test func promptRefusesToRunWithoutATerminal() async throws {
        let daemon = try DaemonHarness(trusted: [])
        try await daemon.start()
        let result = try await daemon.photoctl(["permissions", "prompt"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("terminal"), "\(result.stderr)")
    }

    @Test func aShellScriptRequestsAndThenSeesOnlyWhatItWasAllowed() async throws {
        let daemon = try DaemonHarness(trusted: [])
        try daemon.add("beach/1.jpg", Photo.jpeg("Beach"))
        try daemon.add("hike/2.jpg", Photo.jpeg("Hike"))
        try await daemon.start()
        let script = try daemon.dir.write("backup.sh", Array("""
            #!/bin/bash
            "$PHOTOCTL" request --reason "nightly backup" --label Backup || exit $?
            "$PHOTOCTL" --as-app --json groups
            """.utf8))
        var environment = daemon.environment
        environment["PHOTOCTL"] = Binaries.photoctl
        let run = try StreamingProcess("/bin/bash", [script], environment: environment, directory: daemon.dir, name: "backup")
        #expect(await daemon.logContains("authorization requested"), "\(daemon.log)")
        let apps = try #require(try await daemon.photoctlJSON(["permissions"])["apps"] as? [[String: Any]])
        let entry = try #require(apps.first { ($0["id"] as? String)?.hasSuffix("/backup.sh") == true }, "\(apps)")
        #expect((entry["id"] as? String)?.hasPrefix("script:") == true)
        #expect(entry["label"] as? String == "Backup")
        _ = try await daemon.photoctlJSON(["permissions", "allow", "backup.sh", "--group", "Hike"])
        await #expect(run.exitStatus() == 0, "\(run.stderr)")
        #expect(run.lines.first == "limited")
        let listed = try JSONSerialization.jsonObject(with: Data(run.lines.dropFirst().joined(separator: "\n").utf8))
        #expect(((listed as? [String: Any])?["groups"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Hike"])

        // Denied: exit status 1, and the message names the command that lets it ask again.
        _ = try await daemon.photoctlJSON(["permissions", "deny", "backup.sh"])
        let denied = try StreamingProcess("/bin/bash", [script], environment: environment, directory: daemon.dir, name: "denied")
        await #expect(denied.exitStatus() == 1)
        #expect(denied.stderr.contains("photoctl permissions reset"), "\(denied.stderr)")
    }
}
