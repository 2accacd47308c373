import Foundation
import PhotoAPI
import PhotoClient
import PhotoTestSupport
import Testing

/// An app's SetDescription against the real photod: it waits for the owner (a pending reply
/// with `more`, the owner's watchers told), and only an allowed change is written; denied,
/// expired, withdrawn by hanging up and revoked changes write nothing.
@Suite(.serialized)
struct AppDescribeTests {
    /// A library of two Beach photos and one Hike photo; the test process is the owner.
    static func library(permissions: String = "") async throws -> DaemonHarness {
        let daemon = try DaemonHarness(settings: #"log_level = "debug""#, permissions: permissions)
        try daemon.add("beach/1.jpg", Photo.jpeg("Beach"))
        try daemon.add("beach/2.jpg", Photo.jpeg("Beach"))
        try daemon.add("hike/3.jpg", Photo.jpeg("Hike"))
        try await daemon.start()
        return daemon
    }

    /// The owner's client, and an app the owner allowed to see everything.
    static func allowedApp(_ daemon: DaemonHarness) async throws -> (owner: PhotoClient, app: PythonApp) {
        let owner = try await PhotoClient.connect(socketPath: daemon.socket)
        let app = try PythonApp(socket: daemon.socket, directory: daemon.dir)
        _ = try await daemon.photoctl(["permissions", "allow", try await app.appID])
        return (owner, app)
    }

    /// The ids of the photos under `folder`, and their files.
    static func photos(_ client: PhotoClient, in folder: String) async throws -> [(id: String, path: String)] {
        try await client.allAssets(group: nil).filter { $0.path.contains("/\(folder)/") }.map { ($0.id, $0.path) }
    }

    /// Starts the owner's `photoctl permissions watch --json`, once photod counts it.
    static func ownerEvents(_ daemon: DaemonHarness) async throws -> StreamingProcess {
        let watch = try StreamingProcess(Binaries.photoctl, ["permissions", "watch", "--json"],
                                         environment: daemon.environment, directory: daemon.dir, name: "owner-watch")
        #expect(await daemon.logContains("permissions watch started", timeout: 60), "\(watch.stderr)")
        return watch
    }

    @Test func anAllowedChangeWaitsPendingThenIsWrittenAndTheOwnerIsToldBothEnds() async throws {
        let daemon = try await Self.library()
        let (owner, app) = try await Self.allowedApp(daemon)
        let beach = try await Self.photos(owner, in: "beach")
        let before = try Data(contentsOf: URL(fileURLWithPath: beach[0].path))
        let events = try await Self.ownerEvents(daemon)

        let describe = try app.stream(["describe", "[\"\(beach[0].id)\", \"\(beach[1].id)\"]", "Harbour"], name: "describe")
        await #expect(describe.wait { $0.objects.count >= 1 }, "\(describe.stderr)")
        #expect(describe.objects.first?["pending"] as? Bool == true, "\(describe.objects)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: beach[0].path)) == before, "nothing is written before the owner answers")

        let waiting = try await owner.listChanges()
        let change = try #require(waiting.first)
        #expect(waiting.count == 1)
        #expect(Set(change.ids) == Set(beach.map(\.id)) && change.description == "Harbour")
        #expect(change.app.id == (try await app.appID))
        let answered = try await owner.answerChange(change.id, allow: true)
        #expect(answered.answer == .allowed)

        await #expect(describe.exitStatus() == 0)
        let last = try #require(describe.objects.last)
        let written = try #require(last["assets"] as? [[String: Any]], "\(last)")
        #expect(Set(written.compactMap { $0["group"] as? String }) == ["Harbour"])
        #expect(Set(written.compactMap { $0["id"] as? String }) == Set(beach.map(\.id)), "each photo keeps its id")
        #expect(try await owner.listChanges().isEmpty)
        await #expect(events.wait { $0.objects.count >= 2 }, "\(events.lines)")
        #expect(events.objects.map { $0["kind"] as? String } == ["changeRequested", "changeEnded"])
        #expect(events.objects.last?["answer"] as? String == "allowed")
        await owner.close()
    }

    @Test func aDeniedChangeFailsTheCallAndWritesNothing() async throws {
        let daemon = try await Self.library()
        let (owner, app) = try await Self.allowedApp(daemon)
        let hike = try await Self.photos(owner, in: "hike")
        let before = try Data(contentsOf: URL(fileURLWithPath: hike[0].path))

        let describe = try app.stream(["describe", "[\"\(hike[0].id)\"]"], name: "describe")
        await #expect(describe.wait { $0.objects.count >= 1 }, "\(describe.stderr)")
        let change = try #require(try await owner.listChanges().first)
        #expect(change.description == nil, "absent clears the description")
        #expect(try await owner.answerChange(change.id, allow: false).answer == .denied)
        await #expect(describe.exitStatus() == 0)
        #expect(describe.objects.last?.varlinkError == "io.photod.Library.ChangeNotAllowed", "\(describe.objects)")
        #expect(describe.objects.last?.replyParameters["answer"] as? String == "denied")
        #expect(try Data(contentsOf: URL(fileURLWithPath: hike[0].path)) == before)
        #expect(try await owner.getAssets(ids: [hike[0].id]).assets.first?.group == "Hike")
        // Answered once: a second answer finds nothing waiting.
        await #expect(throws: PhotoClientError.self) { try await owner.answerChange(change.id, allow: true) }
        await owner.close()
    }

    @Test func hangingUpWithdrawsTheChangeAndLosingAccessRevokesIt() async throws {
        let daemon = try await Self.library()
        let (owner, app) = try await Self.allowedApp(daemon)
        let appID = try await app.appID
        let beach = try await Self.photos(owner, in: "beach")
        let events = try await Self.ownerEvents(daemon)

        let first = try app.stream(["describe", "[\"\(beach[0].id)\"]", "Gone"], name: "first")
        await #expect(first.wait { $0.objects.count >= 1 }, "\(first.stderr)")
        await first.kill()
        await #expect(events.wait { $0.objects.contains { $0["answer"] as? String == "withdrawn" } }, "\(events.lines)")
        #expect(try await owner.listChanges().isEmpty)

        let second = try app.stream(["describe", "[\"\(beach[0].id)\"]", "Revoked"], name: "second")
        await #expect(second.wait { $0.objects.count >= 1 }, "\(second.stderr)")
        _ = try await daemon.photoctl(["permissions", "reset", appID])
        await #expect(second.exitStatus() == 0)
        #expect(second.objects.last?.replyParameters["answer"] as? String == "revoked", "\(second.objects)")
        #expect(try await owner.listChanges().isEmpty)
        #expect(try await owner.getAssets(ids: [beach[0].id]).assets.first?.group == "Beach")
        await owner.close()
    }

    @Test func anUnansweredChangeExpires() async throws {
        let daemon = try await Self.library(permissions: "request_timeout = 1")
        let (owner, app) = try await Self.allowedApp(daemon)
        let beach = try await Self.photos(owner, in: "beach")
        let reply = try await app.call("io.photod.Library.SetDescription", "{\"ids\": [\"\(beach[0].id)\"], \"description\": \"Late\"}")
        #expect(reply.varlinkError == "io.photod.Library.ChangeNotAllowed", "\(reply)")
        #expect(reply.replyParameters["answer"] as? String == "expired")
        #expect(try await owner.getAssets(ids: [beach[0].id]).assets.first?.group == "Beach")
        await owner.close()
    }

    @Test func anAppNamesOnlyPhotosItSeesAndHasOneChangeWaiting() async throws {
        let daemon = try await Self.library()
        let owner = try await PhotoClient.connect(socketPath: daemon.socket)
        let app = try PythonApp(socket: daemon.socket, directory: daemon.dir)
        let appID = try await app.appID
        let beach = try await Self.photos(owner, in: "beach")
        let hike = try await Self.photos(owner, in: "hike")
        let setting = { (id: String) in "{\"ids\": [\"\(id)\"], \"description\": \"Mine\"}" }

        // Not allowed to read: refused before the owner is bothered.
        #expect(try await app.error(of: "io.photod.Library.SetDescription", setting(beach[0].id))
                == "io.photod.Library.AuthorizationRequired")
        _ = try await daemon.photoctl(["permissions", "allow", appID, "--group", "Beach"])
        // A photo outside its selection is as unknown to it as one the library lacks.
        #expect(try await app.error(of: "io.photod.Library.SetDescription", setting(hike[0].id))
                == "io.photod.Library.AssetNotFound")
        // Text no photo could take is refused before the owner is asked about it.
        #expect(try await app.error(of: "io.photod.Library.SetDescription", "{\"ids\": [\"\(beach[0].id)\"], \"description\": \"a\\u001bb\"}")
                == "io.photod.Library.DescriptionRefused")
        #expect(try await owner.listChanges().isEmpty)

        let waiting = try app.stream(["describe", "[\"\(beach[0].id)\"]", "Mine"], name: "waiting")
        await #expect(waiting.wait { $0.objects.count >= 1 }, "\(waiting.stderr)")
        #expect(try await app.error(of: "io.photod.Library.SetDescription", setting(beach[1].id)) == "io.photod.Library.Busy")
        #expect(try await owner.listChanges().count == 1)
        await waiting.kill()
        await owner.close()
    }

    @Test func theOwnerAllowsAChangeInTheTerminalPrompt() async throws {
        let daemon = try await Self.library()
        let (owner, app) = try await Self.allowedApp(daemon)
        let hike = try await Self.photos(owner, in: "hike")
        let describe = try app.stream(["describe", "[\"\(hike[0].id)\"]", "Summit\u{202E}gpj.exe"], name: "describe")
        await #expect(describe.wait { $0.objects.count >= 1 }, "\(describe.stderr)")

        let helper = try daemon.dir.write("terminal.py", Array(PermissionsPromptTests.terminal.utf8))
        let prompt = try await ProcessRunner.run("/usr/bin/env", [
            "python3", helper, Binaries.photoctl, "[a]llow / [d]eny / [s]kip", "a",
        ], environment: daemon.environment)
        #expect(prompt.status == 0, "\(prompt.stdout)\n\(prompt.stderr)")
        // The question wraps at the terminal's width, later lines indented.
        #expect(PermissionsPromptTests.unwrapped(prompt.stdout).contains("to set the description of 1 photo to \"Summit\\u{202E}gpj.exe\"?"),
                "the app's text is escaped: \(prompt.stdout)")
        #expect(prompt.stdout.contains(hike[0].path) && prompt.stdout.contains("(Hike)"), "\(prompt.stdout)")
        #expect(prompt.stdout.contains("change allowed"), "\(prompt.stdout)")
        await #expect(describe.exitStatus() == 0)
        let written = try #require(describe.objects.last?["assets"] as? [[String: Any]], "\(describe.objects)")
        #expect(written.first?["group"] as? String == "Summit\u{202E}gpj.exe")
        await owner.close()
    }
}
