import Foundation
import PhotoTestSupport
import Testing

/// photod-notify where something is missing: buttons, a terminal, a notification server, the
/// session bus, photod itself for a while; and Choose… with a terminal.
@Suite(.serialized) struct NotifyFallbackTests {
    @Test func aServerWithoutActionsOrMarkupGetsPlainTextNamingTheCommands() throws {
        let setup = try NotifySetup(actions: false, markup: false)
        let request = try setup.app.stream(["request", "please", "<b>x</b>\u{1B}[2J"], name: "request")
        defer { request.kill() }
        let appID = try setup.app.appID
        _ = try #require(setup.notification(mentioning: appID), "\(setup.notifier.log)")
        let shown = try #require(setup.server.notifications.first)
        #expect(shown["actions"] as? [String] == [])
        let body = try #require(shown["body"] as? String)
        #expect(body.contains(#""<b>x</b>\u{1B}[2J""#), "\(body)")
        #expect(!body.contains("\u{1B}"))
        #expect(body.contains("photoctl permissions prompt"), "\(body)")
        #expect(body.contains("photoctl permissions allow \(appID)"), "\(body)")
    }

    @Test func chooseOpensThePromptForThatAppInTheTerminal() throws {
        let tools = try TemporaryDirectory()
        let argv = tools.file("terminal-argv")
        try tools.write("x-terminal-emulator", Array("#!/bin/sh\nprintf '%s\\n' \"$@\" > \(argv).tmp && mv \(argv).tmp \(argv)\n".utf8))
        chmod(tools.file("x-terminal-emulator"), 0o755)
        let setup = try NotifySetup(path: tools.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"))
        let request = try setup.app.stream(["request", "please"], name: "request")
        defer { request.kill() }
        let appID = try setup.app.appID
        let id = try #require(setup.notification(mentioning: appID), "\(setup.notifier.log)")
        try setup.server.invoke(id, "choose")
        #expect(eventually { FileManager.default.fileExists(atPath: argv) }, "\(setup.notifier.log)")
        let recorded = try String(contentsOfFile: argv, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(recorded == ["-e", Binaries.photoctl, "permissions", "prompt", "--app", appID, "--uid", "\(getuid())"],
                "\(setup.notifier.log)")
        // Choose… answers nothing by itself.
        #expect(request.objects.count == 1)
    }

    @Test func withoutATerminalChooseSaysWhichCommandToRun() throws {
        let empty = try TemporaryDirectory()
        let setup = try NotifySetup(path: empty.path)
        let request = try setup.app.stream(["request", "please"], name: "request")
        defer { request.kill() }
        let appID = try setup.app.appID
        let id = try #require(setup.notification(mentioning: appID), "\(setup.notifier.log)")
        try setup.server.invoke(id, "choose")
        let command = "photoctl permissions prompt --app \(appID) --uid \(getuid())"
        _ = try #require(setup.notification(mentioning: command), "\(setup.server.calls) \(setup.notifier.log)")
        #expect(setup.server.notifications.last?["summary"] as? String == "No terminal to answer in")
        #expect(setup.notifier.logContains("x-terminal-emulator is not on PATH"))
    }

    @Test func withoutASessionBusItSaysSoAndExitsZeroAndRequestsWorkAsBefore() throws {
        let daemon = try DaemonHarness(trusted: [])
        try daemon.start()
        let notifier = try NotifierProcess(daemon: daemon, environment: [
            "DBUS_SESSION_BUS_ADDRESS": "unix:path=" + daemon.dir.file("no-such-bus")])
        #expect(notifier.process.exitStatus(timeout: 60) == 0, "\(notifier.log)")
        #expect(notifier.log.contains("no D-Bus session bus"), "\(notifier.log)")
        #expect(notifier.log.contains("photoctl permissions prompt"), "\(notifier.log)")

        let app = try PythonApp(socket: daemon.socket, directory: daemon.dir)
        let request = try app.stream(["request", "please"], name: "request")
        defer { request.kill() }
        #expect(request.wait(timeout: 60) { $0.objects.count >= 1 }, "\(request.stderr)")
        let allowed = try daemon.photoctl(["permissions", "allow", "viewer.py"])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(request.exitStatus(timeout: 60) == 0)
        #expect(request.objects.last?["status"] as? String == "authorized")
    }

    @Test func withABusButNoServerItWaitsAndTriesAgainAtTheNextRequest() throws {
        let daemon = try DaemonHarness(trusted: [])
        try daemon.start()
        let bus = try SessionBusFixture(directory: daemon.dir)
        let notifier = try NotifierProcess(daemon: daemon, environment: bus.environment)
        #expect(notifier.logContains("no desktop notification server"), "\(notifier.log)")
        #expect(notifier.logContains("watching photod's permission requests"), "\(notifier.log)")
        #expect(notifier.process.isRunning)

        // The request works exactly as without photod-notify.
        let first = try PythonApp(socket: daemon.socket, directory: daemon.dir, name: "first.py")
        let asked = try first.stream(["request", "please"], name: "first")
        defer { asked.kill() }
        #expect(asked.wait(timeout: 60) { $0.objects.count >= 1 })
        #expect(try daemon.photoctl(["permissions", "allow", "first.py"]).status == 0)
        #expect(asked.exitStatus(timeout: 60) == 0)

        // A server that comes up afterwards is found at the next request.
        let server = try NotificationServerFixture(bus: bus)
        let second = try PythonApp(socket: daemon.socket, directory: daemon.dir, name: "second.py")
        let again = try second.stream(["request", "please"], name: "second")
        defer { again.kill() }
        #expect(server.wait { $0.notifications.contains { ($0["body"] as? String)?.contains("second.py") == true } },
                "\(notifier.log)")
    }

    @Test func aRestartedNotificationServerIsShownWhatStillWaits() throws {
        let setup = try NotifySetup()
        let request = try setup.app.stream(["request", "please"], name: "request")
        defer { request.kill() }
        let appID = try setup.app.appID
        _ = try #require(setup.notification(mentioning: appID), "\(setup.notifier.log)")
        setup.server.kill()
        #expect(setup.notifier.logContains("the notification server left the session bus"), "\(setup.notifier.log)")
        let restarted = try NotificationServerFixture(bus: setup.bus, name: "restarted-server")
        #expect(restarted.wait { $0.notifications.contains { ($0["body"] as? String)?.contains(appID) == true } },
                "\(setup.notifier.log)")
        #expect(restarted.notifications.first?["replaces_id"] as? Int == 0)
        #expect(restarted.notifications.count == 1, "\(restarted.calls)")
    }

    @Test func whenPhotodRestartsItsEndedRequestsAreClosedAndNewOnesShown() throws {
        let setup = try NotifySetup()
        let request = try setup.app.stream(["request", "before"], name: "before")
        defer { request.kill() }
        let before = try #require(setup.notification(mentioning: "Reason: before"), "\(setup.notifier.log)")
        #expect(setup.daemon.stop() == 0)
        #expect(setup.server.wait { $0.closed.contains(before) }, "\(setup.notifier.log)")
        try setup.daemon.start()
        let after = try setup.app.stream(["request", "after"], name: "after")
        defer { after.kill() }
        #expect(setup.notification(mentioning: "Reason: after") != nil, "\(setup.notifier.log)")
    }
}
