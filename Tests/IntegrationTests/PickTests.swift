import Foundation
import PhotoAPI
import PhotoClient
import PhotoTestSupport
import Testing

/// An app's Pick against the real photod and photoctl: the owner answers with `photoctl pick`,
/// the app gets the ids in order and may read those photos by id (never list them), and the
/// picks are kept with its record until unpicked, reset or removed.
@Suite(.serialized)
struct PickTests {
    /// What each test starts from: photod over two Beach photos and one Hike photo, the owner's
    /// client (this process), an app that has not asked for anything (its id), and the photos.
    static func setUp(permissions: String = "") async throws -> (
        daemon: DaemonHarness, owner: PhotoClient, app: PythonApp, appID: String,
        beach: [(id: String, path: String)], hike: [(id: String, path: String)]
    ) {
        let daemon = try await AppDescribeTests.library(permissions: permissions)
        let owner = try await PhotoClient.connect(socketPath: daemon.socket)
        let app = try PythonApp(socket: daemon.socket, directory: daemon.dir)
        return (daemon, owner, app, try await app.appID, try await AppDescribeTests.photos(owner, in: "beach"),
                try await AppDescribeTests.photos(owner, in: "hike"))
    }

    /// Starts `app`'s Pick and waits for its pending reply.
    static func picking(_ app: PythonApp, limit: Int? = nil, name: String = "pick") async throws -> StreamingProcess {
        let pick = try app.stream(["pick", "Choose a cover"] + (limit.map { ["\($0)"] } ?? []), name: name)
        await #expect(pick.wait { $0.objects.count >= 1 }, "\(pick.stderr)")
        #expect(pick.objects.first?["pending"] as? Bool == true, "\(pick.objects)")
        return pick
    }

    /// The ids a finished Pick returned.
    static func pickedIDs(_ pick: StreamingProcess) async -> [String]? {
        _ = await pick.exitStatus()
        return pick.objects.last?["ids"] as? [String]
    }

    @Test func theOwnerPicksByPathAndTheAppReadsThoseByIDButListsNothing() async throws {
        let (daemon, owner, app, appID, beach, hike) = try await Self.setUp()
        let events = try await AppDescribeTests.ownerEvents(daemon)

        let pick = try await Self.picking(app, limit: 2)
        let listed = try await daemon.photoctl(["pick"])
        #expect(listed.status == 0 && listed.stdout.contains("Choose a cover") && listed.stdout.contains("Test Viewer"),
                "\(listed.stdout)\(listed.stderr)")
        // Answered in the order named: the Hike photo first, by path, then a Beach one by id.
        let answered = try await daemon.photoctl(["pick", "--app", appID, hike[0].path, beach[1].id])
        #expect(answered.status == 0 && answered.stdout.contains("picked 2 photos"), "\(answered.stdout)\(answered.stderr)")
        #expect(await Self.pickedIDs(pick) == [hike[0].id, beach[1].id])
        await #expect(events.wait { $0.objects.count >= 2 }, "\(events.lines)")
        #expect(events.objects.map { $0["kind"] as? String } == ["pickRequested", "pickEnded"])
        #expect(events.objects.last?["answer"] as? String == "allowed")
        #expect(events.objects.last?["picked"] as? Int == 2)

        // Read by id: the picked ones, and nothing else; listed: nothing at all.
        let all = (beach + hike).map { "\"\($0.id)\"" }.joined(separator: ", ")
        let fetched = try await app.call("io.photod.Library.GetAssets", "{\"ids\": [\(all)]}")
        #expect(Set((fetched["assets"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String })
                == [hike[0].id, beach[1].id], "\(fetched)")
        #expect(try await app.error(of: "io.photod.Library.RequestImage",
                                    "{\"id\": \"\(hike[0].id)\", \"width\": 64, \"height\": 64}") == nil)
        #expect(try await app.error(of: "io.photod.Library.RequestImage",
                                    "{\"id\": \"\(beach[0].id)\", \"width\": 64, \"height\": 64}") == "io.photod.Library.AssetNotFound")
        #expect(try await app.error(of: "io.photod.Library.ListAssets") == "io.photod.Library.AuthorizationRequired")
        #expect(try await app.error(of: "io.photod.Library.ListGroups") == "io.photod.Library.AuthorizationRequired")
        #expect(try await app.error(of: "io.photod.Library.Search", #"{"query": "Beach"}"#) == "io.photod.Library.AuthorizationRequired")

        // Another app cannot read them.
        let other = try PythonApp(socket: daemon.socket, directory: daemon.dir, name: "other.py")
        #expect(try await other.error(of: "io.photod.Library.GetAssets", "{\"ids\": [\"\(hike[0].id)\"]}")
                == "io.photod.Library.AuthorizationRequired")

        // The owner sees the count in the record and the ids in order.
        let shown = try await daemon.photoctl(["permissions", "show", appID])
        #expect(shown.stdout.contains("picked") && shown.stdout.contains("2 photos"), "\(shown.stdout)")
        #expect(try await owner.picked(app: appID) == [hike[0].id, beach[1].id])
        #expect(try await owner.app(appID).picked == 2)
        await owner.close()
    }

    @Test func picksSurviveARestartAndUnpickAndResetTakeThemBack() async throws {
        let (daemon, owner, app, appID, beach, _) = try await Self.setUp()
        await owner.close()

        let pick = try await Self.picking(app, limit: 2)
        #expect(try await daemon.photoctl(["pick", "--app", appID, beach[0].id, beach[1].id]).status == 0)
        #expect(await Self.pickedIDs(pick) == [beach[0].id, beach[1].id])
        await #expect(daemon.stop() == 0)
        try await daemon.start()
        let ids = "{\"ids\": [\"\(beach[0].id)\", \"\(beach[1].id)\"]}"
        let kept = try await app.call("io.photod.Library.GetAssets", ids)
        #expect((kept["assets"] as? [[String: Any]])?.count == 2, "\(kept)")

        // The original too, as a descriptor, read by the same script (same path, same app id).
        try Data(OpenOriginalPythonTests.receiver.utf8).write(to: URL(fileURLWithPath: app.script))
        let opened = try await ProcessRunner.run("/usr/bin/env", ["python3", app.script, daemon.socket, beach[0].id])
        #expect(opened.stdout.contains("\"fds\": 1"), "\(opened.stdout)\(opened.stderr)")
        try Data(PythonApp.source.utf8).write(to: URL(fileURLWithPath: app.script))

        let unpicked = try await daemon.photoctl(["permissions", "unpick", appID, beach[0].id])
        #expect(unpicked.status == 0 && unpicked.stdout.contains("1 picked photo left"), "\(unpicked.stdout)\(unpicked.stderr)")
        let after = try await app.call("io.photod.Library.GetAssets", ids)
        #expect((after["assets"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [beach[1].id], "\(after)")
        #expect(try await daemon.photoctl(["permissions", "reset", appID]).status == 0)
        #expect(try await app.error(of: "io.photod.Library.GetAssets", ids) == "io.photod.Library.AuthorizationRequired")
    }

    @Test func aLimitedAppsPicksStayApartFromItsSelection() async throws {
        let (daemon, owner, app, appID, _, hike) = try await Self.setUp()
        _ = try await daemon.photoctl(["permissions", "allow", appID, "--group", "Beach"])

        let pick = try await Self.picking(app)
        #expect(try await daemon.photoctl(["pick", "--app", appID, hike[0].id]).status == 0)
        #expect(await Self.pickedIDs(pick) == [hike[0].id])
        let record = try await owner.app(appID)
        #expect(record.assets.isEmpty && record.groups == ["Beach"] && record.picked == 1)
        // A new selection does not drop the picks; they still never show in a listing.
        _ = try await daemon.photoctl(["permissions", "allow", appID, "--group", "Beach"])
        #expect(try await owner.picked(app: appID) == [hike[0].id])
        let listed = try await app.call("io.photod.Library.ListAssets")
        #expect(!((listed["assets"] as? [[String: Any]]) ?? []).contains { $0["id"] as? String == hike[0].id })
        let groups = try await app.call("io.photod.Library.ListGroups")
        #expect((groups["groups"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Beach"])
        let fetched = try await app.call("io.photod.Library.GetAssets", "{\"ids\": [\"\(hike[0].id)\"]}")
        #expect((fetched["assets"] as? [[String: Any]])?.count == 1, "\(fetched)")
        await owner.close()
    }

    @Test func anUnansweredPickIsCancelledAndTheLimitIsBounded() async throws {
        let (daemon, owner, app, _, _, _) = try await Self.setUp(permissions: "request_timeout = 1")
        let events = try await AppDescribeTests.ownerEvents(daemon)

        // Unanswered for the request timeout: cancelled, and the owner's watchers hear it expired.
        let expired = try await app.call("io.photod.Library.Pick", #"{"reason": "late"}"#)
        #expect(expired["cancelled"] as? Bool == true, "\(expired)")
        await #expect(events.wait { $0.objects.contains { $0["answer"] as? String == "expired" } }, "\(events.lines)")
        for limit in [0, 1001] {
            #expect(try await app.error(of: "io.photod.Library.Pick", "{\"reason\": \"x\", \"limit\": \(limit)}")
                    == "org.varlink.service.InvalidParameter")
        }
        await owner.close()
    }

    @Test func theOwnerAnswersWithinTheLimitOrCancelsAndAppsWaitOneAtATime() async throws {
        let (daemon, owner, app, appID, beach, _) = try await Self.setUp()
        let events = try await AppDescribeTests.ownerEvents(daemon)

        let first = try await Self.picking(app)
        #expect(try await app.error(of: "io.photod.Library.Pick", #"{"reason": "again"}"#) == "io.photod.Library.Busy")
        let tooMany = try await daemon.photoctl(["pick", "--app", appID, beach[0].id, beach[1].id])
        #expect(tooMany.status != 0, "a pick of one takes one photo: \(tooMany.stdout)")
        let unknown = try await daemon.photoctl(["pick", "--app", appID, "zzzzzzzzzzzzzzzz"])
        #expect(unknown.status != 0 && unknown.stderr.contains("zzzzzzzzzzzzzzzz"), "\(unknown.stderr)")
        let cancelled = try await daemon.photoctl(["pick", "--app", appID, "--cancel"])
        #expect(cancelled.status == 0 && cancelled.stdout.contains("cancelled"), "\(cancelled.stdout)\(cancelled.stderr)")
        _ = await first.exitStatus()
        #expect(first.objects.last?["cancelled"] as? Bool == true, "\(first.objects)")
        #expect(try await owner.picked(app: appID).isEmpty)

        let second = try await Self.picking(app, name: "second")
        await second.kill()
        await #expect(events.wait { $0.objects.contains { $0["answer"] as? String == "withdrawn" } }, "\(events.lines)")
        #expect(try await owner.listPicks().isEmpty)
        let none = try await daemon.photoctl(["pick"])
        #expect(none.stdout.contains("No app is waiting"), "\(none.stdout)")
        await owner.close()
    }

    @Test func theAppsTextIsListedEscaped() async throws {
        let (daemon, owner, app, _, _, _) = try await Self.setUp()
        let pick = try app.stream(["pick", "cover\u{1B}]0;owned\u{07}\nforged row", "3"], name: "pick")
        await #expect(pick.wait { $0.objects.count >= 1 }, "\(pick.stderr)")
        let listed = try await daemon.photoctl(["pick"])
        #expect(!listed.stdout.contains("\u{1B}"), "\(listed.stdout)")
        #expect(!listed.stdout.split(separator: "\n").contains { $0.hasPrefix("forged row") }, "\(listed.stdout)")
        #expect(listed.stdout.contains("cover\\u{1B}]0;owned\\u{07}\\u{0A}forged row"), "\(listed.stdout)")
        let json = try await daemon.photoctlJSON(["pick"])
        #expect((json["picks"] as? [[String: Any]])?.first?["limit"] as? Int == 3, "\(json)")
        await pick.kill()
        await owner.close()
    }

    @Test func aRestrictedAppCannotPick() async throws {
        let (daemon, owner, app, _, _, _) = try await Self.setUp(permissions: #"restricted = ["script:*/viewer.py"]"#)
        let refused = try await app.call("io.photod.Library.Pick", #"{"reason": "please"}"#)
        #expect(refused["error"] as? String == "io.photod.Library.AuthorizationRequired", "\(refused)")
        #expect((refused["parameters"] as? [String: Any])?["status"] as? String == "restricted")
        #expect(try await owner.listApps().isEmpty, "refused before it takes a record slot")
        #expect(daemon.isRunning)
        await owner.close()
    }
}
