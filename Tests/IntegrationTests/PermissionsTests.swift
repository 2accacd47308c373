import Foundation
import PhotoTestSupport
import Testing

/// The authorization model end to end: a Python varlink app asks, the owner (photoctl) decides,
/// and every Library method shows the app exactly what it was allowed to see.
@Suite(.serialized) struct PermissionsTests {
    /// A daemon over Beach ×2, Hike ×1 and one undescribed photo, where only photoctl is the owner.
    static func library(settings: String = "", permissions: String = "") async throws -> DaemonHarness {
        let daemon = try DaemonHarness(settings: settings, trusted: [], permissions: permissions)
        try daemon.add("beach/1.jpg", Photo.jpeg("Beach"))
        try daemon.add("beach/2.jpg", Photo.jpeg("Beach"))
        try daemon.add("hike/3.jpg", Photo.jpeg("Hike"))
        try daemon.add("other.jpg", Photo.jpeg(nil))
        try await daemon.start()
        return daemon
    }

    @Test func anAppAsksTheOwnerAllowsOneGroupAndEveryMethodRespectsIt() async throws {
        let daemon = try await Self.library()
        let app = try PythonApp(socket: daemon.socket, directory: daemon.dir)
        let ids = try await daemon.photoctlJSON(["list", "--sort", "path"]).ids(relativeTo: daemon.library)

        // Refused before any decision, with a hint saying how to ask.
        let refused = try await app.call("io.photod.Library.ListGroups")
        #expect(refused["error"] as? String == "io.photod.Library.AuthorizationRequired")
        let details = try #require(refused["parameters"] as? [String: Any])
        #expect(details["status"] as? String == "notDetermined")
        #expect((details["hint"] as? String)?.contains("RequestAuthorization") == true)
        let appID = try await #require((try app.call("io.photod.Authorization.Status")["app"] as? [String: Any])?["id"] as? String)
        #expect(appID.hasPrefix("script:") && appID.hasSuffix("/viewer.py"))
        #expect(details["app"] as? String == appID)

        // It asks: pending at once, and the owner sees the request.
        let request = try app.stream(["request", "to print a beach calendar"], name: "request")
        await #expect(request.wait { $0.objects.count >= 1 }, "no pending reply: \(request.stderr)")
        #expect(request.objects.first?["status"] as? String == "notDetermined")
        #expect(request.objects.first?["pending"] as? Bool == true)
        let listed = try #require(try await daemon.photoctlJSON(["permissions"])["apps"] as? [[String: Any]])
        let entry = try #require(listed.first { $0["id"] as? String == appID })
        #expect(entry["pending"] as? Bool == true)
        #expect(entry["reason"] as? String == "to print a beach calendar")
        #expect(entry["label"] as? String == "Test Viewer")

        // The owner allows Beach only (naming the app by a part of its id); the request ends limited.
        let decided = try await daemon.photoctlJSON(["permissions", "allow", "viewer.py", "--group", "Beach"])
        #expect(decided["status"] as? String == "limited")
        await #expect(request.exitStatus() == 0)
        #expect(request.objects.last?["status"] as? String == "limited")
        #expect(request.objects.last?["pending"] as? Bool == false)

        // Groups and counts: only Beach, counting only what is visible.
        let groups = try #require(try await app.call("io.photod.Library.ListGroups")["groups"] as? [[String: Any]])
        #expect(groups.map { $0["name"] as? String } == ["Beach"])
        #expect(groups.first?["count"] as? Int == 2)
        let status = try await app.call("io.photod.Library.Status")
        #expect(status["assets"] as? Int == 2)
        #expect(status["groups"] as? Int == 1)
        #expect((status["roots"] as? [[String: Any]])?.first?["assets"] as? Int == 2)

        // Listing and fetching: the Hike photo is missing exactly like an id that never existed.
        let listing = try #require(try await app.call("io.photod.Library.ListAssets", "{}")["assets"] as? [[String: Any]])
        #expect(Set(listing.compactMap { $0["id"] as? String }) == Set([ids["beach/1.jpg"], ids["beach/2.jpg"]].compactMap { $0 }))
        let hike = try #require(ids["hike/3.jpg"])
        let beach1 = try #require(ids["beach/1.jpg"])
        let fetched = try await app.call("io.photod.Library.GetAssets", #"{"ids": ["\#(hike)", "\#(beach1)", "nosuchid00000000"]}"#)
        #expect((fetched["assets"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [beach1])
        #expect(fetched["missing"] as? [String] == [hike, "nosuchid00000000"])
        await #expect(try app.error(of: "io.photod.Library.ListAssets", #"{"group": "Hike"}"#) == "io.photod.Library.GroupNotFound")
        await #expect(try app.error(of: "io.photod.Library.ListAssets", #"{"group": "Nowhere"}"#) == "io.photod.Library.GroupNotFound")

        // Subscribe: a change outside Beach is not delivered; one inside is, and so is the
        // owner widening the selection, as the assets that appeared.
        let subscription = try app.stream(["subscribe"], name: "subscribe")
        await #expect(subscription.wait { $0.objects.count >= 1 }, "\(subscription.stderr)")
        try daemon.add("hike/4.jpg", Photo.jpeg("Hike"))
        try daemon.add("beach/5.jpg", Photo.jpeg("Beach"))
        await #expect(subscription.wait { $0.objects.count >= 2 }, "\(subscription.stderr)")
        let beachAdded = try await daemon.photoctlJSON(["list", "--sort", "path"]).ids(relativeTo: daemon.library)
        #expect(subscription.objects[1]["inserted"] as? [String] == [try #require(beachAdded["beach/5.jpg"])])
        #expect(subscription.objects[1]["groupsChanged"] as? [String] == ["Beach"])
        _ = try await daemon.photoctlJSON(["permissions", "allow", appID, "--group", "Beach", "--group", "Hike"])
        await #expect(subscription.wait { $0.objects.count >= 3 }, "\(subscription.stderr)")
        let widened = subscription.objects[2]
        #expect(Set(widened["inserted"] as? [String] ?? []) == Set([beachAdded["hike/3.jpg"], beachAdded["hike/4.jpg"]].compactMap { $0 }))
        #expect(widened["groupsChanged"] as? [String] == ["Hike"])
        #expect(subscription.objects.allSatisfy { ($0["inserted"] as? [String] ?? []).allSatisfy { $0 != ids["other.jpg"] } })

        // Deny: the subscription ends, every method refuses, and the hint names photoctl.
        _ = try await daemon.photoctlJSON(["permissions", "deny", appID])
        await #expect(subscription.exitStatus() != nil, "the subscription must end when access is withdrawn")
        #expect(subscription.objects.last?["error"] as? String == "io.photod.Library.AuthorizationRequired")
        let denied = try await app.call("io.photod.Library.ListGroups")
        let deniedDetails = try #require(denied["parameters"] as? [String: Any])
        #expect(deniedDetails["status"] as? String == "denied")
        #expect((deniedDetails["hint"] as? String)?.contains("photoctl permissions reset") == true)

        // Sticky: asking again answers denied at once, without a new prompt for the owner.
        let again = try app.stream(["request", "please"], name: "again")
        await #expect(again.exitStatus() == 0)
        #expect(again.objects.map { $0["status"] as? String } == ["denied"])
        let afterDenial = try #require(try await daemon.photoctlJSON(["permissions"])["apps"] as? [[String: Any]])
        #expect(afterDenial.first { $0["id"] as? String == appID }?["pending"] as? Bool == false)
        #expect(afterDenial.first { $0["id"] as? String == appID }?["reason"] as? String == "to print a beach calendar")

        // Reset: the app may ask again, and the request is pending once more.
        _ = try await daemon.photoctlJSON(["permissions", "reset", "viewer.py"])
        let third = try app.stream(["request", "once more"], name: "third")
        await #expect(third.wait { $0.objects.count >= 1 })
        #expect(third.objects.first?["pending"] as? Bool == true)
        await third.kill()
    }

    @Test func theConfigPolicyRestrictsAndPhotoctlCannotLiftIt() async throws {
        let daemon = try await Self.library(permissions: #"restricted = ["script:*/viewer.py"]"#)
        let app = try PythonApp(socket: daemon.socket, directory: daemon.dir)
        let request = try app.stream(["request", "let me in"], name: "request")
        await #expect(request.exitStatus() == 0)
        #expect(request.objects.map { $0["status"] as? String } == ["restricted"])
        let refused = try #require(try await app.call("io.photod.Library.ListAssets")["parameters"] as? [String: Any])
        #expect(refused["status"] as? String == "restricted")
        let allow = try await daemon.photoctl(["permissions", "allow", "viewer.py"])
        #expect(allow.status == 1)
        #expect(allow.stderr.contains("restricted"), "\(allow.stderr)")
        await #expect(try app.error(of: "io.photod.Library.ListGroups") == "io.photod.Library.AuthorizationRequired")
    }

    @Test func ownerOnlyMethodsRefuseAppsWithAHint() async throws {
        let daemon = try await Self.library()
        let app = try PythonApp(socket: daemon.socket, directory: daemon.dir)
        for method in ["io.photod.Authorization.ListApps", "io.photod.Library.Rescan"] {
            let reply = try await app.call(method)
            #expect((reply["error"] as? String)?.hasSuffix(".OwnerOnly") == true, "\(method): \(reply)")
            #expect(((reply["parameters"] as? [String: Any])?["hint"] as? String)?.contains("photoctl") == true)
        }
        let decide = try await app.call("io.photod.Authorization.Decide", #"{"app": "viewer", "status": "authorized"}"#)
        #expect(decide["error"] as? String == "io.photod.Authorization.OwnerOnly")
        // An app cannot decide for itself even after the owner let it see everything.
        _ = try await daemon.photoctlJSON(["permissions", "allow", try #require(
            (try app.call("io.photod.Authorization.Status")["app"] as? [String: Any])?["id"] as? String)])
        await #expect(try app.error(of: "io.photod.Library.ListGroups") == nil)
        await #expect(try app.error(of: "io.photod.Authorization.Reset", #"{"app": "viewer"}"#) == "io.photod.Authorization.OwnerOnly")
    }

    @Test func decisionsSurviveARestart() async throws {
        let daemon = try await Self.library()
        let app = try PythonApp(socket: daemon.socket, directory: daemon.dir)
        let appID = try await #require((try app.call("io.photod.Authorization.Status")["app"] as? [String: Any])?["id"] as? String)
        _ = try await daemon.photoctlJSON(["permissions", "allow", appID, "--group", "Hike"])
        await #expect(daemon.stop() == 0)
        try await daemon.start()
        let groups = try #require(try await app.call("io.photod.Library.ListGroups")["groups"] as? [[String: Any]])
        #expect(groups.map { $0["name"] as? String } == ["Hike"])
    }

    @Test func aRequestTimesOutAsNotDeterminedAndHangingUpCancelsIt() async throws {
        let daemon = try await Self.library(settings: #"log_level = "debug""#, permissions: "request_timeout = 1")
        let app = try PythonApp(socket: daemon.socket, directory: daemon.dir)
        let watch = try StreamingProcess(Binaries.photoctl, ["permissions", "watch", "--json"],
                                         environment: daemon.environment, directory: daemon.dir, name: "watch")
        #expect(await daemon.logContains("permissions watch started", timeout: 60), "\(watch.stderr)")
        let request = try app.stream(["request", "slow owner"], name: "request")
        await #expect(request.exitStatus(timeout: 10) == 0)
        #expect(request.objects.map { $0["status"] as? String } == ["notDetermined", "notDetermined"])
        #expect(request.objects.map { $0["pending"] as? Bool } == [true, false])

        let second = try app.stream(["request", "going away"], name: "second")
        await #expect(second.wait { $0.objects.count >= 1 })
        await second.kill()
        await #expect(watch.wait { $0.objects.filter { $0["kind"] as? String == "cancelled" }.count >= 2 },
                "events: \(watch.lines)")
        let kinds = watch.objects.compactMap { $0["kind"] as? String }
        #expect(kinds == ["requested", "cancelled", "requested", "cancelled"])
        let apps = try #require(try await daemon.photoctlJSON(["permissions"])["apps"] as? [[String: Any]])
        #expect(apps.allSatisfy { $0["pending"] as? Bool == false })
    }

    @Test func anAppWatchesOnlyItsOwnEventsAndTheOwnerWatchesAll() async throws {
        let daemon = try await Self.library(settings: #"log_level = "debug""#)
        let viewer = try PythonApp(socket: daemon.socket, directory: daemon.dir, name: "viewer.py")
        let other = try PythonApp(socket: daemon.socket, directory: daemon.dir, name: "other.py")
        let viewerEvents = try viewer.stream(["watch"], name: "viewer-watch")
        let ownerEvents = try StreamingProcess(Binaries.photoctl, ["permissions", "watch", "--json"],
                                               environment: daemon.environment, directory: daemon.dir, name: "owner-watch")
        // Both watchers subscribed before anything happens: a late one would miss events.
        #expect(await eventually { daemon.log.contains("watchers=2") }, "\(viewerEvents.stderr) \(ownerEvents.stderr)")
        let otherRequest = try other.stream(["request", "other reasons"], name: "other-request")
        await #expect(otherRequest.wait { $0.objects.count >= 1 })
        _ = try await daemon.photoctlJSON(["permissions", "deny", "other.py"])
        let viewerID = try await #require((try viewer.call("io.photod.Authorization.Status")["app"] as? [String: Any])?["id"] as? String)
        _ = try await daemon.photoctlJSON(["permissions", "allow", viewerID, "--group", "Beach"])
        _ = try await daemon.photoctlJSON(["permissions", "allow", viewerID, "--group", "Hike"])
        await #expect(ownerEvents.wait { $0.objects.count >= 4 }, "\(ownerEvents.lines)")
        #expect(ownerEvents.objects.map { $0["kind"] as? String } == ["requested", "decided", "decided", "selectionChanged"])
        await #expect(viewerEvents.wait { $0.objects.count >= 2 }, "\(viewerEvents.lines) \(viewerEvents.stderr)")
        // A barrier: one more decision about the viewer. A watcher hears events in the order
        // they happened, so anything the steps above would have sent it has arrived before this.
        _ = try await daemon.photoctlJSON(["permissions", "deny", viewerID])
        await #expect(viewerEvents.wait { $0.objects.count >= 3 }, "\(viewerEvents.lines) \(viewerEvents.stderr)")
        #expect(viewerEvents.objects.map { $0["kind"] as? String } == ["decided", "selectionChanged", "decided"])
        #expect(viewerEvents.objects.allSatisfy { ($0["app"] as? [String: Any])?["id"] as? String == viewerID })
        #expect((viewerEvents.objects[1]["app"] as? [String: Any])?["groups"] as? [String] == ["Hike"])
    }

    @Test func aReloadedPolicyRestrictsAtOnceAndLiftingItRestoresTheDecision() async throws {
        let daemon = try await Self.library()
        let app = try PythonApp(socket: daemon.socket, directory: daemon.dir)
        let appID = try await #require((try app.call("io.photod.Authorization.Status")["app"] as? [String: Any])?["id"] as? String)
        _ = try await daemon.photoctlJSON(["permissions", "allow", appID, "--group", "Hike"])
        await #expect(try app.error(of: "io.photod.Library.ListGroups") == nil)

        try daemon.writeConfig(trusted: [], permissions: #"restricted = ["script:*/viewer.py"]"#)
        daemon.send(SIGHUP)
        #expect(await daemon.logContains("permissions policy reloaded"), "\(daemon.log)")
        let refused = try #require(try await app.call("io.photod.Library.ListGroups")["parameters"] as? [String: Any])
        #expect(refused["status"] as? String == "restricted")

        try daemon.writeConfig(trusted: [])
        daemon.send(SIGHUP)
        try await eventually(within: 10, every: .milliseconds(50)) { try await app.error(of: "io.photod.Library.ListGroups") == nil }
        let groups = try #require(try await app.call("io.photod.Library.ListGroups")["groups"] as? [[String: Any]])
        #expect(groups.map { $0["name"] as? String } == ["Hike"], "the limited selection comes back as it was")
    }

    @Test func overlongRequestsAreRefusedAndAppTextCannotDriveTheOwnersTerminal() async throws {
        let daemon = try await Self.library(permissions: "request_timeout = 1")
        let app = try PythonApp(socket: daemon.socket, directory: daemon.dir)
        let long = String(repeating: "x", count: 1001)
        let reason = try await app.call("io.photod.Authorization.RequestAuthorization", #"{"reason": "\#(long)"}"#)
        #expect(reason["error"] as? String == "org.varlink.service.InvalidParameter")
        #expect((reason["parameters"] as? [String: Any])?["parameter"] as? String == "reason")
        let label = try await app.call("io.photod.Authorization.RequestAuthorization",
                                 #"{"reason": "fine", "label": "\#(String(repeating: "y", count: 201))"}"#)
        #expect((label["parameters"] as? [String: Any])?["parameter"] as? String == "label")
        let apps = try #require(try await daemon.photoctlJSON(["permissions"])["apps"] as? [[String: Any]])
        #expect(apps.allSatisfy { $0["pending"] as? Bool == false && $0["reason"] == nil }, "nothing was recorded: \(apps)")

        // Escape sequences in what an app declares are shown escaped, never sent to the terminal.
        let sneaky = try await app.call("io.photod.Authorization.RequestAuthorization",
                                  #"{"reason": "ok\u001b[1A", "label": "\u001b[2JEvil\nAllow"}"#)
        #expect(sneaky["status"] as? String == "notDetermined", "the request times out unanswered: \(sneaky)")
        let table = try await daemon.photoctl(["permissions"])
        #expect(table.status == 0)
        #expect(!table.stdout.contains("\u{1B}"), "\(table.stdout)")
        #expect(table.stdout.contains(#"\u{1B}[2JEvil\u{0A}Allow"#) && table.stdout.contains(#"ok\u{1B}[1A"#), "\(table.stdout)")
    }
}
