import PhotoAPI
import Foundation
@testable import PhotoDaemon

/// Shared values for the authorization tests.
enum AuthorizationFixtures {
    static let app = "org.example.Viewer"
    static let t0 = Date(timeIntervalSince1970: 1_700_000_000)
    static let t1 = t0.addingTimeInterval(10)
    static let t2 = t0.addingTimeInterval(20)

    /// The uid of the fixtures' app: the test's own, as in the user service.
    static let uid = getuid()

    /// A machine for `app` in `status`, with a selection when limited.
    static func machine(
        _ status: AuthorizationStatus = .notDetermined,
        app: String = app,
        policy: AuthorizationPolicy = AuthorizationPolicy()
    ) -> AuthorizationMachine {
        let limited = status == .limited
        let record = AppAuthorization(
            app: app, uid: uid, status: status, decidedAt: status == .notDetermined ? nil : t0,
            assets: limited ? ["a1"] : [], groups: limited ? ["Beach"] : [])
        return AuthorizationMachine(record: record, policy: policy)
    }

    /// A machine whose app has a pending request from each of `waiters`.
    static func pending(waiters: [UInt64] = [1]) -> AuthorizationMachine {
        var machine = machine()
        for waiter in waiters {
            _ = machine.request(reason: "to show your photos", label: "Viewer", waiter: waiter, now: t0)
        }
        return machine
    }

    /// The event the machine's current record makes.
    static func event(_ kind: AuthorizationEventKind, _ machine: AuthorizationMachine) -> AuthorizationMachine.Action {
        .notify(AuthorizationEvent(kind: kind, app: machine.record))
    }

    /// The answer waiters get while the owner has not decided.
    static func answerPending(_ waiters: [UInt64]) -> AuthorizationMachine.Action {
        .answer(waiters: waiters, status: .notDetermined, pending: true, hint: nil)
    }
}
