import Foundation
import PhotoTestSupport
import Testing

/// RequestAuthorization with needs (PermissionScope) against the real photod: one request for
/// both levels, each decided apart, one answer with every level's status and the required ones
/// missing.
@Suite(.serialized)
struct NeedsRequestTests {
    static let readRequiredAddOptional = #"""
        [{"level": "readWrite", "required": true, "reason": "to show your trips"},
         {"level": "addOnly", "required": false, "reason": "to save edited copies"}]
        """#

    @Test func aRequiredNeedDeniedIsNamedMissingAndTheOptionalOneIsGranted() async throws {
        let daemon = try await PermissionsTests.library()
        let app = try PythonApp(socket: daemon.socket, directory: daemon.dir)
        let appID = try await app.appID
        let request = try app.stream(["needs", Self.readRequiredAddOptional], name: "needs")
        await #expect(request.wait { $0.objects.count >= 1 }, "\(request.stderr)")
        let first = try #require(request.objects.first)
        #expect(first["pending"] as? Bool == true)
        #expect((first["statuses"] as? [[String: Any]])?.map { $0["level"] as? String } == ["readWrite", "addOnly"])

        let shown = try await daemon.photoctlJSON(["permissions", "show", appID])
        let record = try #require(shown["app"] as? [String: Any] ?? (shown["apps"] as? [[String: Any]])?.first, "\(shown)")
        #expect(record["required"] as? [String] == ["readWrite"], "\(record)")
        #expect(record["pending"] as? Bool == true && (record["addOnly"] as? [String: Any])?["pending"] as? Bool == true)

        _ = try await daemon.photoctl(["permissions", "deny", appID])
        _ = try await daemon.photoctl(["permissions", "allow", appID, "--level", "add"])
        await #expect(request.exitStatus() == 0, "\(request.stderr)")
        let last = try #require(request.objects.last)
        #expect(last["pending"] as? Bool == false)
        #expect((last["statuses"] as? [[String: Any]])?.map { $0["status"] as? String } == ["denied", "authorized"], "\(last)")
        #expect(last["missingRequired"] as? [String] == ["readWrite"])
        #expect(last["status"] as? String == "denied")
    }

    @Test func needsAlreadyGrantedAnswerAtOnceWithNothingMissing() async throws {
        let daemon = try await PermissionsTests.library()
        let app = try PythonApp(socket: daemon.socket, directory: daemon.dir)
        _ = try await daemon.photoctl(["permissions", "allow", try await app.appID, "--group", "Beach"])
        let request = try app.stream(["needs", Self.readRequiredAddOptional], name: "needs")
        await #expect(request.exitStatus() == 0, "\(request.stderr)")
        #expect(request.objects.count == 1, "no pending reply when nothing waits: \(request.objects)")
        let reply = try #require(request.objects.first)
        // limited includes adding: the add-only need is answered authorized without a question.
        #expect((reply["statuses"] as? [[String: Any]])?.map { $0["status"] as? String } == ["limited", "authorized"])
        #expect(reply["missingRequired"] as? [String] == [])
    }

    @Test func malformedNeedsAreRefusedAndHangingUpEndsEveryNeed() async throws {
        let daemon = try await PermissionsTests.library()
        let app = try PythonApp(socket: daemon.socket, directory: daemon.dir)
        let twice = #"{"needs": [{"level": "addOnly", "required": true, "reason": "a"}, {"level": "addOnly", "required": false, "reason": "b"}]}"#
        #expect(try await app.error(of: "io.photod.Authorization.RequestAuthorization", twice)
                == "org.varlink.service.InvalidParameter")
        let long = #"{"needs": [{"level": "readWrite", "required": true, "reason": "\#(String(repeating: "x", count: 1001))"}]}"#
        #expect(try await app.error(of: "io.photod.Authorization.RequestAuthorization", long)
                == "org.varlink.service.InvalidParameter")
        let both = #"{"reason": "r", "needs": [{"level": "readWrite", "required": true, "reason": "a"}]}"#
        #expect(try await app.error(of: "io.photod.Authorization.RequestAuthorization", both)
                == "org.varlink.service.InvalidParameter")

        let request = try app.stream(["needs", Self.readRequiredAddOptional], name: "needs")
        await #expect(request.wait { $0.objects.count >= 1 }, "\(request.stderr)")
        await request.kill()
        #expect(await eventually {
            let apps = (try? await daemon.photoctlJSON(["permissions"]))?["apps"] as? [[String: Any]] ?? []
            return !apps.isEmpty && apps.allSatisfy {
                $0["pending"] as? Bool == false && ($0["addOnly"] as? [String: Any])?["pending"] as? Bool != true
            }
        }, "both needs end when the app hangs up")
    }
}
