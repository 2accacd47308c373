import Foundation
import LogLines
import PhotoAPI
import PhotoTestSupport
import Store
import Varlink
import Testing
@testable import PhotoDaemon

/// Apps asking and hanging up in a loop over a real index (issue 26, request churn): the apps
/// backup is not rewritten, the rate limit refuses with a clear error, and the log is capped.
@Suite struct AuthorizerChurnTests {
    typealias Rig = AuthorizerTests.Rig

    /// The backup file's inode and bytes: a rewrite (temporary file, rename) changes the inode.
    static func backup(_ rig: Rig) throws -> (inode: UInt64, bytes: Data) {
        let path = rig.dir.file("state/index.sqlite") + ".apps.json"
        var info = stat()
        guard stat(path, &info) == 0 else { throw POSIXError(.ENOENT) }
        return (UInt64(info.st_ino), try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test func requestCyclesWriteNoBackupButADecisionDoes() async throws {
        try await Rig.with { rig in
            _ = try await rig.authorizer.decide(AuthorizerTests.app("eog").id, status: .authorized, assets: [], groups: [])
            let before = try Self.backup(rig)
            // New apps and the same app again, each connecting, asking and hanging up.
            var cycles = 0
            for round in 0..<AuthorizationLimits.requestBurst {
                for name in ["a", "b", "c", "d"] {
                    let app = AuthorizerTests.app("churn-\(name)")
                    let (waiter, _) = try await rig.authorizer.request(app, reason: "round \(round)", label: "L\(round)")
                    await rig.authorizer.cancel(app: AppKey(app), waiter: waiter)
                    cycles += 1
                }
            }
            try await rig.store.settled()
            #expect(cycles == 20)
            let after = try Self.backup(rig)
            #expect(after.inode == before.inode, "the backup was rewritten")
            #expect(after.bytes == before.bytes)
            // The records themselves are stored; only the backup waits for a decision.
            #expect(try await rig.stored().count == 5)
            _ = try await rig.authorizer.decide(AuthorizerTests.app("churn-a").id, status: .denied, assets: [], groups: [])
            #expect(try Self.backup(rig).inode != before.inode)
            #expect(try Self.backup(rig).bytes.count > before.bytes.count)
        }
    }

    @Test func theRequestPastTheLimitIsRefusedClearlyAndTheLogIsCapped() async throws {
        try await Rig.with { rig in
            let app = AuthorizerTests.app("churner")
            var refusals: [AuthorizationCallError] = []
            // Tests run side by side on two threads: the loop may take seconds, and a token
            // refilled meanwhile lets one more request through (AuthorizationChurnTests pin the clock).
            let started = ContinuousClock.now
            for round in 0..<(AuthorizationLimits.requestBurst + 20) {
                do {
                    let (waiter, _) = try await rig.authorizer.request(app, reason: "round \(round)", label: nil)
                    await rig.authorizer.cancel(app: AppKey(app), waiter: waiter)
                } catch let error as AuthorizationCallError {
                    refusals.append(error)
                }
            }
            let refilled = Int((ContinuousClock.now - started) / .seconds(12))
            #expect(refusals.count >= 20 - refilled && refusals.count <= 20)
            guard case .refused(.tooManyRequests(let refusedApp, let retryAfter)) = refusals.first else {
                Issue.record("the first refusal is not tooManyRequests: \(refusals)")
                return
            }
            #expect(refusedApp == app.id)
            #expect((1...12).contains(retryAfter))
            // No pending request was left by a refusal.
            #expect(try await rig.stored().allSatisfy { !$0.pending })
            let error = AuthorizationAPI.varlinkError(refusals[0])
            #expect(error.name == AuthorizationInterface.Error.tooManyRequests)
            #expect(error.parameters(TooManyRequestsError.self) == TooManyRequestsError(app: app.id, retryAfter: retryAfter))

            let lines = rig.log.all
            let requested = lines.filter { $0.hasPrefix("authorization requested") }
            let refused = lines.filter { $0.hasPrefix("too many authorization requests") }
            #expect(requested.count == AppLogBudgets.linesPerWindow)
            #expect(refused.count == AppLogBudgets.linesPerWindow)
        }
    }
}
