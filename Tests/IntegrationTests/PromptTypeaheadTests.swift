import Foundation
import PhotoTestSupport
import Testing

/// `permissions prompt` on a pseudo-terminal: keys typed before a question is shown do not
/// answer it, and what the app and the photos say reaches the terminal escaped.
@Suite(.serialized) struct PromptTypeaheadTests {
    @Test func keysTypedBeforeTheRequestDoNotAnswerIt() async throws {
        let hostileGroup = "Hike\u{1B}]0;owned\u{07}"
        let daemon = try DaemonHarness(trusted: [])
        try daemon.add("beach/1.jpg", Photo.jpeg("Beach"))
        try daemon.add("hike/2.jpg", Photo.jpeg(hostileGroup))
        try await daemon.start()
        let helper = try daemon.dir.write("terminal.py", Array(PermissionsPromptTests.terminal.utf8))
        var environment = daemon.environment
        environment["TYPE_AHEAD"] = "a"
        let prompt = try StreamingProcess("/usr/bin/env", [
            "python3", helper, Binaries.photoctl,
            "[a]llow / [l]imited / [d]eny / [s]kip", "l",
            "Groups to share", "2",
        ], environment: environment, directory: daemon.dir, name: "prompt")
        await #expect(prompt.wait(timeout: 20) { $0.lines.contains("typed ahead") }, "\(prompt.stderr)")

        // The "a" is in the terminal's input before the app asks; the owner has not seen the question.
        let app = try PythonApp(socket: daemon.socket, directory: daemon.dir)
        let request = try app.stream(["request", "to make a slideshow\u{1B}[2J\nAllow everything? yes"], name: "request")
        await #expect(prompt.exitStatus(timeout: 30) == 0, "\(prompt.lines)\n\(prompt.stderr)")
        await #expect(request.exitStatus() == 0)
        #expect(request.objects.last?["status"] as? String == "limited", "\(request.objects)")
        let groups = try #require(try await app.call("io.photod.Library.ListGroups")["groups"] as? [[String: Any]])
        #expect(groups.map { $0["name"] as? String } == [hostileGroup])

        // What the app and the photos chose is on the terminal escaped.
        let screen = prompt.lines.joined(separator: "\n")
        #expect(!screen.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "\(screen.debugDescription)")
        #expect(screen.contains("Reason: to make a slideshow\\u{1B}[2J\\u{0A}Allow everything? yes"), "\(screen)")
        #expect(screen.contains("2) Hike\\u{1B}]0;owned\\u{07} (1)"), "\(screen)")
    }
}
