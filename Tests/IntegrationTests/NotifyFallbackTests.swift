import Foundation
import PhotoTestSupport
import Testing

/// photod-notify where something is missing: buttons, a terminal, a notification server, the
/// session bus, photod itself for a while; and Choose… with a terminal.
@Suite(.serialized) struct NotifyFallbackTests {
    @Test func aServerWithoutActionsOrMarkupGetsPlainTextNamingTheCommands() async throws {
        let setup = try await NotifySetup(actions: false, markup: false)
        let request = try setup.app.stream(["request", "please", "<b>x</b>\u{1B}[2J"], name: "request")
        defer { request.end() }
        let appID = try await setup.app.appID
        _ = try #require(await setup.notification(mentioning: appID), "\(setup.notifier.log)")
        let shown = try #require(setup.server.notifications.first)
        #expect(shown["actions"] as? [String] == [])
        let body = try #require(shown["body"] as? String)
        #expect(body.contains(#""<b>x</b>\u{1B}[2J""#), "\(body)")
        #expect(!body.contains("\u{1B}"))
        #expect(body.contains("photoctl permissions prompt"), "\(body)")
        #expect(body.contains("photoctl permissions allow \(appID)"), "\(body)")
    }

    @Test func chooseOpensThePromptForThatAppInTheTerminal() async throws {
        let tools = try TemporaryDirectory()
        let argv = tools.file("terminal-argv")
        try tools.write("x-terminal-emulator", Array("#!/bin/sh\nprintf '%s\\n' \"$@\" > \(argv).tmp && mv \(argv).tmp \(argv)\n".utf8))
        chmod(tools.file("x-terminal-emulator"), 0o755)
        let setup = try await NotifySetup(path: tools.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"))
        let request = try setup.app.stream(["request", "please"], name: "request")
        let appID = try await setup.app.appID
        let id = try #require(await setup.notification(mentioning: appID), "\(setup.notifier.log)")
        try await setup.server.invoke(id, "choose")
        await #expect(eventually { FileManager.default.fileExists(atPath: argv) }, "\(setup.notifier.log)")
        let recorded = try String(contentsOfFile: argv, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(recorded == ["-e", Binaries.photoctl, "permissions", "prompt", "--app", appID, "--uid", "\(getuid())"],
                "\(setup.notifier.log)")
        // Choose… answers nothing by itself.
        #expect(request.objects.count == 1)
    }

    @Test func withoutATerminalChooseSaysWhichCommandToRun() async throws {
        let empty = try TemporaryDirectory()
        let setup = try await NotifySetup(path: empty.path)
        let request = try setup.app.stream(["request", "please"], name: "request")
        defer { request.end() }
        let appID = try await setup.app.appID
        let id = try #require(await setup.notification(mentioning: appID), "\(setup.notifier.log)")
        try await setup.server.invoke(id, "choose")
        let command = "photoctl permissions prompt --app \(appID) --uid \(getuid())"
        let again = try #require(await setup.notification(mentioning: command), "\(setup.server.calls) \(setup.notifier.log)")
        let shown = try #require(setup.server.notifications.last)
        #expect(shown["summary"] as? String == "An app asks to see your photos", "the request itself, shown again")
        #expect(shown["actions"] as? [String] == ["allow", "Allow", "deny", "Deny"], "no Choose… where it cannot work")
        #expect(await setup.notifier.logContains("x-terminal-emulator is not on PATH"))
        // Allow still works from the notification shown again.
        try await setup.server.invoke(again, "allow")
        await #expect(request.exitStatus(timeout: 60) == 0, "\(request.stderr)")
        #expect(request.objects.last?["status"] as? String == "authorized", "\(request.objects)")
    }

    @Test func withoutASessionBusItSaysSoAndExitsZeroAndRequestsWorkAsBefore() async throws {
        let daemon = try DaemonHarness(trusted: [])
        try await daemon.start()
        let notifier = try NotifierProcess(daemon: daemon, environment: [
            "DBUS_SESSION_BUS_ADDRESS": "unix:path=" + daemon.dir.file("no-such-bus")])
        await #expect(notifier.process.exitStatus(timeout: 60) == 0, "\(notifier.log)")
        #expect(notifier.log.contains("no D-Bus session bus"), "\(notifier.log)")
        #expect(notifier.log.contains("photoctl permissions prompt"), "\(notifier.log)")

        let app = try PythonApp(socket: daemon.socket, directory: daemon.dir)
        let request = try app.stream(["request", "please"], name: "request")
        await #expect(request.wait(timeout: 60) { $0.objects.count >= 1 }, "\(request.stderr)")
        let allowed = try await daemon.photoctl(["permissions", "allow", "viewer.py"])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        await #expect(request.exitStatus(timeout: 60) == 0)
        #expect(request.objects.last?["status"] as? String == "authorized")
    }

    @Test func withABusButNoServerItWaitsAndTriesAgainAtTheNextRequest() async throws {
        let daemon = try DaemonHarness(trusted: [])
        try await daemon.start()
        let bus = try await SessionBusFixture(directory: daemon.dir)
        let notifier = try NotifierProcess(daemon: daemon, environment: bus.environment)
        #expect(await notifier.logContains("no desktop notification server"), "\(notifier.log)")
        #expect(await notifier.logContains("watching photod's permission requests"), "\(notifier.log)")
        #expect(notifier.process.isRunning)

        // The request works exactly as without photod-notify.
        let first = try PythonApp(socket: daemon.socket, directory: daemon.dir, name: "first.py")
        let asked = try first.stream(["request", "please"], name: "first")
        await #expect(asked.wait(timeout: 60) { $0.objects.count >= 1 })
        await #expect(try daemon.photoctl(["permissions", "allow", "first.py"]).status == 0)
        await #expect(asked.exitStatus(timeout: 60) == 0)

        // A server that comes up afterwards is found at the next request.
        let server = try await NotificationServerFixture(bus: bus)
        let second = try PythonApp(socket: daemon.socket, directory: daemon.dir, name: "second.py")
        let again = try second.stream(["request", "please"], name: "second")
        defer { again.end() }
        #expect(await server.wait { $0.notifications.contains { ($0["body"] as? String)?.contains("second.py") == true } },
                "\(notifier.log)")
    }

    @Test func aRestartedNotificationServerIsShownWhatStillWaits() async throws {
        let setup = try await NotifySetup()
        let request = try setup.app.stream(["request", "please"], name: "request")
        defer { request.end() }
        let appID = try await setup.app.appID
        _ = try #require(await setup.notification(mentioning: appID), "\(setup.notifier.log)")
        await setup.server.kill()
        #expect(await setup.notifier.logContains("the notification server left the session bus"), "\(setup.notifier.log)")
        let restarted = try await NotificationServerFixture(bus: setup.bus, name: "restarted-server")
        await #expect(restarted.wait { $0.notifications.contains { ($0["body"] as? String)?.contains(appID) == true } },
                "\(setup.notifier.log)")
        #expect(restarted.notifications.first?["replaces_id"] as? Int == 0)
        #expect(restarted.notifications.count == 1, "\(restarted.calls)")
    }

    @Test func whenPhotodRestartsItsEndedRequestsAreClosedAndNewOnesShown() async throws {
        let setup = try await NotifySetup()
        let request = try setup.app.stream(["request", "before"], name: "before")
        defer { request.end() }
        let before = try #require(await setup.notification(mentioning: "Reason: before"), "\(setup.notifier.log)")
        await #expect(setup.daemon.stop() == 0)
        await #expect(setup.server.wait { $0.closed.contains(before) }, "\(setup.notifier.log)")
        try await setup.daemon.start()
        let after = try setup.app.stream(["request", "after"], name: "after")
        defer { after.end() }
        #expect(await setup.notification(mentioning: "Reason: after") != nil, "\(setup.notifier.log)")
    }
}
