import Foundation
import PhotoTestSupport
import Testing

/// systemd/photod-notify.service as shipped, under a real systemd user manager (root, a private
/// mount namespace, as SystemdManagerTests): it reaches photod through the socket unit and the
/// session bus through its sandbox, and Choose… starts the terminal outside that sandbox.
@Suite(.serialized) struct NotifyUnitTests {
    /// Runs inside `unshare -m`: $1 dir, $2 photod, $3 photod-notify, $4 the units folder, $5 the bus.
    /// Waits for the file `stop` before stopping photod-notify.service.
    static let script = """
        set -u
        dir=$1; photod=$2; notify=$3; units=$4; bus=$5
        until_true() { for _ in $(seq 1200); do eval "$1" && return 0; sleep 0.05; done; echo "timeout=$1"; return 1; }
        show() { systemctl --user show -p "$1" --value photod-notify.service; }
        mount -t tmpfs tmpfs /run/systemd && mkdir -p /run/systemd/system || { echo "setup=failed"; exit 1; }
        export XDG_RUNTIME_DIR="$dir/run" XDG_CONFIG_HOME="$dir/config" HOME="$dir/home"
        mkdir -p -m 0700 "$XDG_RUNTIME_DIR"
        user="$XDG_CONFIG_HOME/systemd/user"
        mkdir -p "$user/photod-notify.service.d" "$user/photod.service.d" "$XDG_CONFIG_HOME/photod"
        sed "s|/usr/bin/photod|$photod|" "$units/photod.service" > "$user/photod.service"
        cp "$units/photod.socket" "$user/"
        sed "s|/usr/libexec/photod/photod-notify|$notify|" "$units/photod-notify.service" > "$user/photod-notify.service"
        # No journald in the namespace: keep its log where the test can read it.
        printf '[Service]\\nStandardError=append:%s\\n' "$dir/notify.log" > "$user/photod-notify.service.d/log.conf"
        printf '[Service]\\nStandardError=append:%s\\n' "$dir/photod.log" > "$user/photod.service.d/log.conf"
        printf 'roots = ["%s"]\\n' "$dir/lib" > "$XDG_CONFIG_HOME/photod/photod.toml"
        # The test's bus is the session bus: dbus-user-session's socket, when installed, would
        # start the machine's own at $XDG_RUNTIME_DIR/bus and set DBUS_SESSION_BUS_ADDRESS to it.
        ln -s /dev/null "$user/dbus.socket" && ln -s /dev/null "$user/dbus.service"
        /lib/systemd/systemd --user > "$dir/manager.log" 2>&1 &
        manager=$!
        trap 'systemctl --user exit 2>/dev/null; sleep 0.5; kill -9 $manager 2>/dev/null' EXIT
        until_true '[ -S "$XDG_RUNTIME_DIR/systemd/private" ]'
        systemctl --user set-environment DBUS_SESSION_BUS_ADDRESS="$bus" PATH="$dir/bin:$PATH"
        systemctl --user start photod.socket
        systemctl --user start photod-notify.service; echo "start_rc=$?"
        until_true 'grep -q "watching photod" "$dir/notify.log" 2>/dev/null'
        echo "ready=$(show ActiveState)"
        until_true '[ -e "$dir/stop" ]'
        systemctl --user stop photod-notify.service
        echo "stop_result=$(show Result)"
        """

    @Test(.enabled(if: SystemdManagerTests.canRunManager,
                   "a systemd user manager needs root here (a private mount namespace on /run/systemd)"))
    func theUnitShowsRequestsAndChooseOpensTheTerminalOutsideItsSandbox() async throws {
        // One manager at a time: two share their units' cgroups (SystemdManagerTurn).
        try await SystemdManagerTurn.run { try await showsRequestsAndOpensTheTerminal() }
    }

    private func showsRequestsAndOpensTheTerminal() async throws {
        let dir = try TemporaryDirectory()
        try dir.write("lib/a.jpg", Photo.jpeg("Beach"))
        let bus = try await SessionBusFixture(directory: dir)
        let server = try await NotificationServerFixture(bus: bus)
        let argv = dir.file("terminal-argv")
        // The stand-in terminal says what it was given and whether it runs with no_new_privs.
        try dir.write("bin/x-terminal-emulator", Array("""
            #!/bin/sh
            { printf '%s\\n' "$@"; grep '^NoNewPrivs:' /proc/self/status; } > \(argv).tmp && mv \(argv).tmp \(argv)

            """.utf8))
        chmod(dir.file("bin/x-terminal-emulator"), 0o755)
        let script = try dir.write("manager.sh", Array(Self.script.utf8))
        let manager = try StreamingProcess("/usr/bin/unshare", [
            "-m", "--propagation", "private", "/bin/bash", script, dir.path, Binaries.photod, NotifierProcess.executable,
            SystemdManagerTests.units, bus.address,
        ], directory: dir, name: "manager")
        // However the body ends, the script is asked to stop its units, and killed only if it does not.
        try await withClosing(manager, close: { manager in
            _ = FileManager.default.createFile(atPath: dir.file("stop"), contents: nil)
            if await manager.exitStatus(timeout: 60) == nil { await manager.kill() }
        }) { manager in
            // photod-notify's log, and for a failure what photod and the manager said too.
        var log: String { (try? String(contentsOfFile: dir.file("notify.log"), encoding: .utf8)) ?? "" }
        var logs: String {
            ["notify.log", "photod.log", "manager.log"].map { name in
                "--- \(name)\n" + ((try? String(contentsOfFile: dir.file(name), encoding: .utf8)) ?? "")
            }.joined(separator: "\n")
        }
            await #expect(manager.wait(timeout: 90) { $0.lines.contains { $0.hasPrefix("ready=") || $0.hasPrefix("timeout=") } },
                    "\(manager.lines) \(manager.stderr)")
            #expect(manager.lines.contains("ready=active"), "\(manager.lines) \(log)")

            // An app asks through the socket unit; the unit's photod-notify shows it.
            let app = try PythonApp(socket: dir.file("run/photod/io.photod"), directory: dir)
            let request = try app.stream(["request", "please"], name: "request")
            let appID = try await app.appID
            await #expect(server.wait { $0.notifications.contains { ($0["body"] as? String)?.contains(appID) == true } },
                    "\(logs) \(request.stderr)")
            let id = try #require(server.notifications.first?["id"] as? Int)

            try await server.invoke(id, "choose")
            await #expect(eventually { FileManager.default.fileExists(atPath: argv) }, "\(log)")
            let recorded = (try? String(contentsOfFile: argv, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
            #expect(Array(recorded.prefix(8)) == ["-e", Binaries.photoctl, "permissions", "prompt", "--app", appID, "--uid",
                                                  "\(getuid())"], "\(log)")
            // Started by systemd-run in a unit of its own, not as photod-notify's child (NoNewPrivileges=yes).
            #expect(recorded.last?.hasSuffix("0") == true, "\(recorded)")

            _ = FileManager.default.createFile(atPath: dir.file("stop"), contents: nil)
            await #expect(manager.exitStatus(timeout: 60) == 0)
            #expect(manager.lines.contains("stop_result=success"), "SIGTERM ends it with status 0: \(manager.lines) \(log)")
        }
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze")))
    func systemdAnalyzeVerifiesTheUnit() async throws {
        let dir = try TemporaryDirectory()
        let unit = try String(contentsOfFile: SystemdManagerTests.units + "/photod-notify.service", encoding: .utf8)
            .replacingOccurrences(of: "/usr/libexec/photod/photod-notify", with: NotifierProcess.executable)
        let path = try dir.write("photod-notify.service", Array(unit.utf8))
        try FileManager.default.createDirectory(atPath: dir.file("run"), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let result = try await ProcessRunner.run("/usr/bin/systemd-analyze", ["verify", "--user", path],
                                           environment: ["XDG_RUNTIME_DIR": dir.file("run"),
                                                         "MANPATH": SystemdManagerTests.manPages])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.isEmpty && result.stdout.isEmpty, "\(result.stdout)\(result.stderr)")
    }
}
