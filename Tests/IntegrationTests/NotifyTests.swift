import Foundation
import PhotoTestSupport
import Testing

/// photod-notify end to end: the real photod, a private session bus, a stand-in notification
/// server that records what it is asked and presses buttons on demand, and a Python app asking.
@Suite(.serialized) struct NotifyTests {
    @Test func anAppAsksAndAllowInItsNotificationAuthorizesItAndClosesIt() async throws {
        let setup = try await NotifySetup()
        let request = try setup.app.stream(["request", "to print a beach calendar"], name: "request")
        let appID = try await setup.app.appID
        let id = try #require(await setup.notification(mentioning: appID), "photod-notify: \(setup.notifier.log)")
        let shown = try #require(setup.server.notifications.first)
        #expect(shown["app_name"] as? String == "photod")
        #expect(shown["summary"] as? String == "An app asks to see your photos")
        #expect(shown["actions"] as? [String] == ["allow", "Allow", "deny", "Deny", "choose", "Choose…"])
        #expect(shown["expire_timeout"] as? Int == 0)
        #expect((shown["body"] as? String)?.contains("Reason: to print a beach calendar") == true)
        // The notification can come up before the app has written the reply it got at once.
        await #expect(request.wait { $0.objects.count >= 1 }, "no pending reply: \(request.stderr)")
        #expect(request.objects.first?["pending"] as? Bool == true)

        try await setup.server.invoke(id, "allow")
        await #expect(request.exitStatus(timeout: 60) == 0, "\(request.stderr)")
        #expect(request.objects.last?["status"] as? String == "authorized")
        await #expect(setup.server.wait { $0.closed.contains(id) }, "\(setup.server.calls)")
        #expect(setup.server.notifications.count == 1, "one request, one notification: \(setup.server.notifications)")
        #expect(await setup.notifier.logContains("the owner decided in a desktop notification"))
        #expect(await setup.daemon.logContains("by=exe:\(NotifierProcess.executable)", timeout: 60),
                "photod logs that photod-notify decided: \(setup.daemon.log)")
    }

    @Test func aRequestDeniedWithPhotoctlClosesItsNotification() async throws {
        let setup = try await NotifySetup()
        let request = try setup.app.stream(["request", "please"], name: "request")
        let id = try #require(await setup.notification(mentioning: try setup.app.appID), "\(setup.notifier.log)")
        let denied = try await setup.daemon.photoctl(["permissions", "deny", "viewer.py"])
        #expect(denied.status == 0, "\(denied.stderr)")
        await #expect(request.exitStatus(timeout: 60) == 0)
        #expect(request.objects.last?["status"] as? String == "denied")
        #expect(await setup.server.wait { $0.closed.contains(id) }, "\(setup.server.calls) \(setup.notifier.log)")
    }

    @Test func aLabelWithMarkupAndControlCharactersIsShownEscaped() async throws {
        let setup = try await NotifySetup()
        let request = try setup.app.stream(["request", "<i>why</i>", "<b>x</b>\u{1B}[31m\nforged & 'q'"], name: "request")
        defer { request.end() }
        _ = try #require(await setup.notification(mentioning: "forged"), "\(setup.notifier.log)")
        let body = try #require(setup.server.notifications.first?["body"] as? String)
        #expect(body.contains(#"&quot;&lt;b&gt;x&lt;/b&gt;\u{1B}[31m\u{0A}forged &amp; &apos;q&apos;&quot;"#), "\(body)")
        #expect(body.contains("Reason: &lt;i&gt;why&lt;/i&gt;"), "\(body)")
        #expect(!body.contains("<"))
        #expect(!body.contains("\u{1B}"))
        #expect(body.split(separator: "\n").count == 2, "the label's newline made no line: \(body)")
    }

    @Test func anActionForgedByAnotherBusConnectionIsIgnored() async throws {
        let setup = try await NotifySetup()
        let request = try setup.app.stream(["request", "please"], name: "request")
        let appID = try await setup.app.appID
        let id = try #require(await setup.notification(mentioning: appID), "\(setup.notifier.log)")

        // Anyone on the bus can emit the server's signal: dbus-send, from a connection of its own.
        let forged = try await setup.bus.send(["--type=signal", NotificationServerFixture.path,
                                         "org.freedesktop.Notifications.ActionInvoked", "uint32:\(id)", "string:allow"])
        #expect(forged.status == 0, "\(forged.stderr)")
        #expect(await setup.notifier.logContains("ignored an action that the notification server did not send"),
                "\(setup.notifier.log)")
        let apps = try #require(try await setup.daemon.photoctlJSON(["permissions"])["apps"] as? [[String: Any]])
        #expect(apps.first { $0["id"] as? String == appID }?["pending"] as? Bool == true)

        // The real server's Deny is what answers the request.
        try await setup.server.invoke(id, "deny")
        await #expect(request.exitStatus(timeout: 60) == 0)
        #expect(request.objects.last?["status"] as? String == "denied")
    }

    @Test func stoppingPhotodNotifyClosesItsNotificationsAndLeavesTheRequestWaiting() async throws {
        let setup = try await NotifySetup()
        let request = try setup.app.stream(["request", "please"], name: "request")
        let id = try #require(await setup.notification(mentioning: try setup.app.appID), "\(setup.notifier.log)")
        kill(setup.notifier.process.pid, SIGTERM)
        await #expect(setup.notifier.process.exitStatus(timeout: 60) == 0, "\(setup.notifier.log)")
        await #expect(setup.server.wait { $0.closed == [id] }, "nobody would hear its buttons: \(setup.server.calls)")
        #expect(request.isRunning)
        #expect(request.objects.count == 1)
    }

    @Test func anInterpreterWithoutAScriptIsAllowedOnlyAfterTheConfirmation() async throws {
        let setup = try await NotifySetup()
        let request = try setup.app.inlineStream(["request", "inline code"], name: "inline")
        let first = try #require(await setup.notification(mentioning: "Warning: "), "\(setup.notifier.log)")
        let body = try #require(setup.server.notifications.first?["body"] as? String)
        #expect(body.contains("exe:/"), "\(body)")
        #expect(body.contains("without a script file"), "\(body)")

        try await setup.server.invoke(first, "allow")
        await #expect(setup.server.wait { $0.notifications.count >= 2 }, "\(setup.server.calls) \(setup.notifier.log)")
        let confirmation = try #require(setup.server.notifications.last)
        #expect(confirmation["replaces_id"] as? Int == first)
        #expect(confirmation["actions"] as? [String] == ["allow-confirmed", "Allow all of them", "deny", "Deny",
                                                         "choose", "Choose…"])
        #expect((confirmation["body"] as? String)?.contains("without a script file") == true)
        // The first Allow decided nothing: the request still waits.
        #expect(request.objects.count == 1)
        let apps = try #require(try await setup.daemon.photoctlJSON(["permissions"])["apps"] as? [[String: Any]])
        #expect(apps.first { ($0["id"] as? String)?.hasPrefix("exe:") == true }?["pending"] as? Bool == true)

        try await setup.server.invoke(try #require(confirmation["id"] as? Int), "allow-confirmed")
        await #expect(request.exitStatus(timeout: 60) == 0, "\(request.stderr)")
        #expect(request.objects.last?["status"] as? String == "authorized")
        #expect(await setup.notifier.logContains("confirmed=true"))
    }
}
