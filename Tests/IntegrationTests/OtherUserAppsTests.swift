import Foundation
import PhotoTestSupport
import Testing

/// photod's grants are kept per user: the same script run by two users is two apps, each with
/// its own decision (issue 11, item 15). The other user here is `nobody`, run with setpriv.
@Suite(.serialized) struct OtherUserAppsTests {
    static let nobody: UInt32 = 65534

    @Test(.enabled(if: getuid() == 0, "setpriv needs root to run a client as another user"))
    func theSameScriptOfTwoUsersIsTwoAppsWithTwoDecisions() async throws {
        let daemon = try DaemonHarness(trusted: [], permissions: "request_timeout = 60")
        try daemon.add("beach/1.jpg", Photo.jpeg("Beach"))
        try await daemon.start()
        // Let nobody reach the socket (search, not list or change, on the folders) while it
        // runs; photoctl, rightly, wants the folders the owner's alone.
        let run = daemon.dir.file("run")
        chmod(daemon.dir.path, 0o711)
        chmod(daemon.socket, 0o666)
        func open(_ reachable: Bool) {
            for folder in [run, run + "/photod"] { chmod(folder, reachable ? 0o711 : 0o700) }
        }
        let script = try daemon.dir.write("asker.py", Array(RawVarlinkClient.source.utf8))
        chmod(script, 0o644)

        func client(_ command: String, as uid: UInt32?) async throws -> [String: Any] {
            let python = ["/usr/bin/python3", script, daemon.socket, command]
            open(true)
            defer { open(false) }
            let result = if let uid {
                try await ProcessRunner.run("/usr/bin/setpriv", ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups"] + python)
            } else {
                try await ProcessRunner.run(python[0], Array(python.dropFirst()))
            }
            return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
                                "\(result)")
        }

        await #expect((try client("ask", as: nil)["parameters"] as? [String: Any])?["pending"] as? Bool == true)
        await #expect((try client("ask", as: Self.nobody)["parameters"] as? [String: Any])?["pending"] as? Bool == true)
        let apps = try #require(try await daemon.photoctlJSON(["permissions"])["apps"] as? [[String: Any]])
        let mine = apps.filter { ($0["id"] as? String)?.hasSuffix("/asker.py") == true }
        #expect(Set(mine.compactMap { $0["uid"] as? Int }) == [0, Int(Self.nobody)], "\(apps)")
        #expect(Set(mine.compactMap { $0["id"] as? String }).count == 1, "one id, two apps")
        let table = try await daemon.photoctl(["permissions"])
        #expect(table.stdout.contains("(uid \(Self.nobody))"), "\(table.stdout)")

        // Naming the id alone is ambiguous; --uid picks nobody's, and only nobody's sees the library.
        let ambiguous = try await daemon.photoctl(["permissions", "allow", "asker.py"])
        #expect(ambiguous.status == 1)
        #expect(ambiguous.stderr.contains("uid \(Self.nobody)") && ambiguous.stderr.contains("uid 0"), "\(ambiguous.stderr)")
        let decided = try await daemon.photoctlJSON(["permissions", "allow", "asker.py", "--uid", "\(Self.nobody)"])
        #expect(decided["uid"] as? Int == Int(Self.nobody))
        #expect(decided["status"] as? String == "authorized")
        await #expect(try client("groups", as: Self.nobody)["error"] == nil)
        await #expect(try client("groups", as: nil)["error"] as? String == "io.photod.Library.AuthorizationRequired")
    }
}
