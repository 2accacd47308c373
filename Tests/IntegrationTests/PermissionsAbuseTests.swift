import Foundation
import PhotoTestSupport
import Testing

/// The attacks of issue 11 (items 3, 12, 13, 14) against the real photod and photoctl.
@Suite(.serialized) struct PermissionsAbuseTests {
    /// A daemon where only photoctl is the owner and requests end after a second.
    static func daemon() async throws -> DaemonHarness {
        let daemon = try DaemonHarness(trusted: [], permissions: "request_timeout = 1")
        try daemon.add("beach/1.jpg", Photo.jpeg("Beach"))
        try await daemon.start()
        return daemon
    }

    static func apps(_ daemon: DaemonHarness) async throws -> [[String: Any]] {
        try #require(try await daemon.photoctlJSON(["permissions"])["apps"] as? [[String: Any]])
    }

    @Test func limitsCountBytesNotCharacters() async throws {
        let daemon = try await Self.daemon()
        let app = try PythonApp(socket: daemon.socket, directory: daemon.dir)
        // 334 characters in 1,002 bytes, each "e" with a combining acute accent.
        let reason = String(repeating: #"e\u0301"#, count: 334)
        let refused = try await app.call("io.photod.Authorization.RequestAuthorization", #"{"reason": "\#(reason)"}"#)
        #expect(refused["error"] as? String == "org.varlink.service.InvalidParameter", "\(refused)")
        #expect((refused["parameters"] as? [String: Any])?["parameter"] as? String == "reason")
        let label = String(repeating: "é", count: 101)
        let long = try await app.call("io.photod.Authorization.RequestAuthorization", #"{"reason": "ok", "label": "\#(label)"}"#)
        #expect((long["parameters"] as? [String: Any])?["parameter"] as? String == "label", "\(long)")
        await #expect(try Self.apps(daemon).isEmpty, "a refused request keeps nothing")

        // The owner's side and the library's are bounded too.
        let owner = try await daemon.photoctl(["permissions", "deny", "exe:/" + String(repeating: "x", count: 1100)])
        #expect(owner.status == 1)
        #expect(owner.stderr.contains("app"), "\(owner.stderr)")
        // Parameters are checked once the app may see the library, so it learns nothing before.
        _ = try await daemon.photoctlJSON(["permissions", "allow", try app.appID])
        let id = String(repeating: "z", count: 65)
        let ids = try await app.call("io.photod.Library.GetAssets", #"{"ids": ["\#(id)"]}"#)
        #expect((ids["parameters"] as? [String: Any])?["parameter"] as? String == "ids", "\(ids)")
        let group = String(repeating: "g", count: 65_537)
        let named = try await app.call("io.photod.Library.ListAssets", #"{"group": "\#(group)"}"#)
        #expect((named["parameters"] as? [String: Any])?["parameter"] as? String == "group")
        await #expect(try app.error(of: "io.photod.Library.ListAssets", #"{"group": "Beach"}"#) == nil)
    }

    @Test func appNamesMatchWholeComponentsOnlyAndRemoveForgetsAnApp() async throws {
        let daemon = try await Self.daemon()
        let folder = daemon.dir.file("bin/calendar.sh.d")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let app = try PythonApp(socket: daemon.socket, directory: daemon.dir, name: "bin/calendar.sh.d/x.py")
        let asked = try await app.call("io.photod.Authorization.RequestAuthorization", #"{"reason": "a calendar"}"#)
        #expect(asked["status"] as? String == "notDetermined", "timed out unanswered: \(asked)")

        // `calendar.sh` is no component of …/calendar.sh.d/x.py: nothing is allowed.
        let wrong = try await daemon.photoctl(["permissions", "allow", "calendar.sh"])
        #expect(wrong.status == 1, "\(wrong.stdout)")
        #expect(wrong.stderr.contains("UnknownApp") || wrong.stderr.contains("calendar.sh"), "\(wrong.stderr)")
        await #expect(try app.error(of: "io.photod.Library.ListGroups") == "io.photod.Library.AuthorizationRequired")
        await #expect(try daemon.photoctl(["permissions", "allow", "calendar"]).status == 1, "a substring names nothing")

        // Its own components do name it; remove forgets it.
        let allowed = try await daemon.photoctlJSON(["permissions", "allow", "calendar.sh.d/x.py"])
        #expect(allowed["status"] as? String == "authorized")
        let removed = try await daemon.photoctlJSON(["permissions", "remove", "x.py"])
        #expect((removed["id"] as? String)?.hasSuffix("/calendar.sh.d/x.py") == true, "\(removed)")
        await #expect(try Self.apps(daemon).isEmpty)
        await #expect(try app.error(of: "io.photod.Library.ListGroups") == "io.photod.Library.AuthorizationRequired")
        let again = try await daemon.photoctl(["permissions", "remove", "x.py"])
        #expect(again.status == 1)
        // Only the owner removes.
        await #expect(try app.error(of: "io.photod.Authorization.Remove", #"{"app": "x.py"}"#) == "io.photod.Authorization.OwnerOnly")
    }

    @Test func whomPhotoctlActsForDoesNotDependOnHowTheSocketIsNamed() async throws {
        let daemon = try await Self.daemon()
        let folder = (daemon.socket as NSString).deletingLastPathComponent
        let script = try daemon.dir.write("ask.sh", Array("""
            #!/bin/bash
            cd "\(folder)" || exit 9
            "$PHOTOCTL" --socket io.photod request --reason "a relative socket"
            """.utf8))
        var environment = daemon.environment
        environment["PHOTOCTL"] = Binaries.photoctl
        let result = try await ProcessRunner.run("/bin/bash", [script], environment: environment)
        // Not "authorized" at once as the owner: the script asked, and nobody answered in time.
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "notDetermined", "\(result)")
        #expect(result.status == 1)
        let ids = try await Self.apps(daemon).compactMap { $0["id"] as? String }
        #expect(ids.contains { $0.hasPrefix("script:") && $0.hasSuffix("/ask.sh") }, "\(ids)")
    }

    @Test func whatAnAppSaysCannotForgeOrFloodTheLog() async throws {
        let daemon = try await Self.daemon()
        // A script whose very path carries a forged line, and a reason that tries the same.
        let forged = "owner decided app=exe:/usr/bin/evil status=authorized"
        let app = try PythonApp(socket: daemon.socket, directory: daemon.dir, name: "evil\n\(forged).py")
        let before = daemon.log.utf8.count
        for _ in 0..<30 {
            _ = try await app.call("io.photod.Authorization.RequestAuthorization",
                             #"{"reason": "x\n\#(forged)\#(String(repeating: "y", count: 900))"}"#)
        }
        #expect(await daemon.logContains("authorization requested"))
        let lines = daemon.log.split(separator: "\n")
        #expect(!lines.contains { $0.hasPrefix("owner decided") }, "\(daemon.log)")
        #expect(daemon.log.contains(#"evil\u{0A}owner decided app=exe:/usr/bin/evil"#), "the id is shown escaped")
        #expect(!daemon.log.contains(String(repeating: "y", count: 900)), "reasons are not logged")
        #expect(daemon.log.utf8.count - before < 30 * 1024, "30 requests wrote \(daemon.log.utf8.count - before) bytes")
    }

    @Test func theAppRecordsAreCappedAndTheListStaysSmall() async throws {
        let daemon = try await Self.daemon()
        let driver = try daemon.dir.write("flood.py", Array(Self.flood.utf8))
        let folder = daemon.dir.file("apps")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try daemon.dir.write("apps/client.py", Array(RawVarlinkClient.source.utf8))
        let result = try await ProcessRunner.run("/usr/bin/env", ["python3", driver, daemon.socket, folder, "1001"], timeout: 300)
        let outcomes = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String], "\(result)")
        #expect(outcomes.filter { $0 == "pending" }.count == 1000, "\(Set(outcomes))")
        // Four ask at once, so the app turned away is one of the last four to ask.
        #expect(outcomes.filter { $0 == "io.photod.Authorization.TooManyApps" }.count == 1, "\(Set(outcomes))")
        #expect(outcomes.suffix(4).contains("io.photod.Authorization.TooManyApps"))
        #expect(daemon.log.components(separatedBy: "turning new apps away").count == 2, "the owner is told once")

        let listing = try await daemon.photoctl(["permissions", "--json"])
        #expect(listing.status == 0)
        #expect(listing.stdout.utf8.count < 8 << 20, "ListApps: \(listing.stdout.utf8.count) bytes")
        await #expect(try Self.apps(daemon).count == 1000)

        // Removing one makes room for the one turned away.
        _ = try await daemon.photoctlJSON(["permissions", "remove", "app0000.py"])
        let retry = try await ProcessRunner.run("/usr/bin/env", ["python3", driver, daemon.socket, folder, "1001", "1000"])
        #expect(retry.stdout.contains("pending"), "\(retry)")
    }

    /// Runs one `RawVarlinkClient` per app (a symlink of its own, so a distinct script id),
    /// each asking once; prints the outcomes (`pending` or the error) as a JSON list.
    static let flood = #"""
        import json, os, subprocess, sys
        from concurrent.futures import ThreadPoolExecutor
        sock, folder, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
        first = int(sys.argv[4]) if len(sys.argv) > 4 else 0
        def ask(i):
            link = os.path.join(folder, "app%04d.py" % i)
            if not os.path.exists(link):
                os.symlink(os.path.join(folder, "client.py"), link)
            out = subprocess.run([sys.executable, link, sock, "ask"], capture_output=True, text=True).stdout
            reply = json.loads(out or "{}")
            return reply.get("error") or ("pending" if reply.get("parameters", {}).get("pending") else "other")
        with ThreadPoolExecutor(4) as pool:
            print(json.dumps(list(pool.map(ask, range(first, count)))))
        """#
}
