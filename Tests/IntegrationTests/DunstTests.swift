import Foundation
import PhotoTestSupport
import Testing

/// photod-notify with Debian's real notification server: dunst on an Xvfb display.
@Suite(.serialized) struct DunstTests {
    @Test func dunstShowsTheRequestClosesItWhenDecidedAndItsAllowAuthorizes() async throws {
        guard DunstFixture.installed else {
            Issue.record("dunst, dunstctl and Xvfb are needed for this test: run scripts/install-deps --test")
            return
        }
        let daemon = try DaemonHarness(trusted: [])
        try await daemon.start()
        let bus = try await SessionBusFixture(directory: daemon.dir)
        let display = try await XvfbFixture(directory: daemon.dir)
        let dunst = try await DunstFixture(bus: bus, display: display)
        let notifier = try NotifierProcess(daemon: daemon, environment: bus.environment)
        #expect(await notifier.logContains("server=dunst"), "\(notifier.log)")
        let app = try PythonApp(socket: daemon.socket, directory: daemon.dir)

        // Asked, shown; denied with photoctl, gone.
        let request = try app.stream(["request", "please"], name: "request")
        #expect(await dunst.waitForCount(1), "\(notifier.log) \(dunst.log)")
        await #expect(try daemon.photoctl(["permissions", "deny", "viewer.py"]).status == 0)
        await #expect(request.exitStatus(timeout: 60) == 0)
        #expect(await dunst.waitForCount(0), "\(notifier.log)")

        // Asked again, and allowed through dunst's own menu of the notification's actions.
        await #expect(try daemon.photoctl(["permissions", "reset", "viewer.py"]).status == 0)
        let again = try app.stream(["request", "please again"], name: "again")
        #expect(await dunst.waitForCount(1), "\(notifier.log) \(dunst.log)")
        let menu = try await dunst.ctl(["context"])
        #expect(menu.status == 0, "\(menu.stderr)")
        await #expect(again.exitStatus(timeout: 60) == 0, "\(notifier.log) \(dunst.log)")
        #expect(again.objects.last?["status"] as? String == "authorized", "\(again.lines)")
        let shown = (try? String(contentsOfFile: dunst.menuInput, encoding: .utf8)) ?? ""
        #expect(shown.contains("#Allow"), "\(shown)")
        #expect(shown.contains("#Choose…"), "\(shown)")
        #expect(await dunst.waitForCount(0), "\(notifier.log)")
    }
}
