import Foundation
import PhotoTestSupport
import Testing

/// photod-notify and an app's SetDescription or Pick: each is shown in its own words, Allow
/// writes a change, Cancel cancels a pick, and one the app withdraws closes its notification.
@Suite(.serialized)
struct NotifyChangeTests {
    @Test func allowInTheNotificationWritesTheChangeAndClosesIt() async throws {
        let setup = try await NotifySetup()
        let appID = try await setup.app.appID
        _ = try await setup.daemon.photoctl(["permissions", "allow", appID])
        let shown = try await setup.daemon.photoctlJSON(["show", setup.daemon.library + "/beach/1.jpg"])
        let photo = try #require((shown["assets"] as? [[String: Any]])?.first?["id"] as? String, "\(shown)")
        let describe = try setup.app.stream(["describe", "[\"\(photo)\"]", "Harbour"], name: "describe")
        let id = try #require(await setup.notification(mentioning: "Harbour"), "photod-notify: \(setup.notifier.log)")
        let notification = try #require(setup.server.notifications.first { $0["id"] as? Int == id })
        #expect(notification["summary"] as? String == "An app asks to change photos")
        #expect((notification["body"] as? String)?.contains("asks to set the description of 1 photo to") == true)
        #expect(notification["actions"] as? [String] == ["allow", "Allow", "deny", "Deny", "choose", "Show…"])

        try await setup.server.invoke(id, "allow")
        await #expect(describe.exitStatus(timeout: 60) == 0, "\(describe.stderr)")
        let written = try #require(describe.objects.last?["assets"] as? [[String: Any]], "\(describe.objects)")
        #expect(written.first?["group"] as? String == "Harbour")
        await #expect(setup.server.wait { $0.closed.contains(id) }, "\(setup.server.calls)")
        #expect(await setup.notifier.logContains("the owner answered a change in a desktop notification"))
    }

    @Test func aChangeTheAppWithdrawsClosesItsNotification() async throws {
        let setup = try await NotifySetup()
        _ = try await setup.daemon.photoctl(["permissions", "allow", try await setup.app.appID])
        let shown = try await setup.daemon.photoctlJSON(["show", setup.daemon.library + "/beach/1.jpg"])
        let photo = try #require((shown["assets"] as? [[String: Any]])?.first?["id"] as? String, "\(shown)")
        let describe = try setup.app.stream(["describe", "[\"\(photo)\"]"], name: "describe")
        let id = try #require(await setup.notification(mentioning: "clear the description"), "\(setup.notifier.log)")
        await describe.kill()
        await #expect(setup.server.wait { $0.closed.contains(id) }, "\(setup.server.calls) \(setup.notifier.log)")
    }

    @Test func cancelInAPicksNotificationCancelsItAndClosesIt() async throws {
        let setup = try await NotifySetup()
        let pick = try setup.app.stream(["pick", "Choose a cover", "2"], name: "pick")
        let id = try #require(await setup.notification(mentioning: "wants you to choose up to 2 photos"),
                              "photod-notify: \(setup.notifier.log)")
        let notification = try #require(setup.server.notifications.first { $0["id"] as? Int == id })
        #expect(notification["summary"] as? String == "An app asks you to choose photos")
        #expect(notification["actions"] as? [String] == ["choose", "Choose…", "cancel", "Cancel"])
        try await setup.server.invoke(id, "cancel")
        await #expect(pick.exitStatus(timeout: 60) == 0, "\(pick.stderr)")
        #expect(pick.objects.last?["cancelled"] as? Bool == true, "\(pick.objects)")
        await #expect(setup.server.wait { $0.closed.contains(id) }, "\(setup.server.calls)")
    }

    @Test func chooseInAPicksNotificationOpensThePickerAndTheAppGetsThePhoto() async throws {
        // The terminal photod-notify opens runs the command it is given on a pty, where a
        // person (the driver) opens Beach, marks a photo and confirms.
        let tools = try TemporaryDirectory()
        let driver = try tools.write("picker.py", Array(PickerTerminalTests.driver.utf8))
        let terminal = """
            #!/bin/sh
            [ "$1" = -e ] && shift
            PICK_ARGV="$(printf '%s\n' "$@")" exec python3 \(driver) - plain 'Beach  (1 photo)' '\r' '/1.jpg' ' ' \
              '1 of 1 marked' c > \(tools.file("screen")) 2>&1
            """
        try tools.write("x-terminal-emulator", Array(terminal.utf8))
        chmod(tools.file("x-terminal-emulator"), 0o755)
        let setup = try await NotifySetup(path: tools.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"))
        let pick = try setup.app.stream(["pick", "Choose a cover"], name: "pick")
        let id = try #require(await setup.notification(mentioning: "wants you to choose a photo"), "\(setup.notifier.log)")
        try await setup.server.invoke(id, "choose")
        await #expect(pick.exitStatus(timeout: 60) == 0, "\(pick.stderr)")
        let screen = (try? String(contentsOfFile: tools.file("screen"), encoding: .utf8)) ?? ""
        #expect((pick.objects.last?["ids"] as? [String])?.count == 1, "\(pick.objects)\n\(screen.suffix(2000))")
        // The server closed the notification when Choose… was pressed; the pick's end brings
        // nothing back.
        #expect(setup.server.notifications.count == 1, "\(setup.server.notifications)")
    }
}
