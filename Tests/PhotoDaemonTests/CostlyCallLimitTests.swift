import PhotoAPI
import Store
import Synchronization
import Testing
import Varlink
@testable import PhotoDaemon

/// Costly calls (Search) admitted per app and per user; the owner never counted, and read on
/// the store's reserved lane.
@Suite struct CostlyCallLimitTests {
    private static func app(_ id: String, uid: UInt32 = 1000) -> Caller {
        .app(AppIdentity(id: id, uid: uid, source: .executable, executable: String(id.dropFirst(4))))
    }

    private static let owner = Caller.owner(AppIdentity(id: "exe:/usr/bin/photoctl", uid: 1000, source: .executable,
                                                        executable: "/usr/bin/photoctl"))

    /// Starts a call admitted by `limit` that runs until `open` is signalled; returns once it is running.
    private static func hold(_ limit: CostlyCallLimit, _ caller: Caller, until open: Gate) async throws -> Task<Void, any Error> {
        let before = limit.runningCount
        let task = Task { try await limit.admit(caller) { await open.wait() } }
        let deadline = ContinuousClock.now + .seconds(10)
        while limit.runningCount == before {
            guard ContinuousClock.now < deadline else {
                open.open()
                throw NotAdmittedAsRunning()
            }
            try await Task.sleep(for: .milliseconds(1))
        }
        return task
    }

    /// The error `admit` throws for `caller` now, if any.
    private static func refusal(_ limit: CostlyCallLimit, _ caller: Caller) async -> VarlinkError? {
        do {
            try await limit.admit(caller) {}
            return nil
        } catch {
            return error as? VarlinkError
        }
    }

    @Test func anAppPastItsConcurrentSearchesIsBusyAndAdmittedAgainOnceOneEnds() async throws {
        let limit = CostlyCallLimit(perApp: 2, perUser: 4)
        let open = Gate()
        let first = try await Self.hold(limit, Self.app("exe:/usr/bin/flood"), until: open)
        let second = try await Self.hold(limit, Self.app("exe:/usr/bin/flood"), until: open)
        let error = await Self.refusal(limit, Self.app("exe:/usr/bin/flood"))
        #expect(error?.name == LibraryInterface.Error.busy)
        #expect(error?.parameters(BusyError.self)?.limit == 2)
        // Another app of the same user, and the owner, are not held up by it.
        #expect(await Self.refusal(limit, Self.app("exe:/usr/bin/viewer")) == nil)
        #expect(await Self.refusal(limit, Self.owner) == nil)
        open.open()
        try await first.value
        try await second.value
        #expect(limit.runningCount == 0)
        #expect(await Self.refusal(limit, Self.app("exe:/usr/bin/flood")) == nil)
    }

    @Test func aRefusalComesOnlyAfterThePaceSoARetryLoopCannotSpinPhotod() async throws {
        let limit = CostlyCallLimit(perApp: 1, perUser: 4)
        let open = Gate()
        let held = try await Self.hold(limit, Self.app("exe:/usr/bin/flood"), until: open)
        let start = ContinuousClock.now
        let error = await Self.refusal(limit, Self.app("exe:/usr/bin/flood"))
        let waited = ContinuousClock.now - start
        #expect(error?.name == LibraryInterface.Error.busy)
        #expect(waited >= RefusalPace.pause, "refused after \(waited)")
        open.open()
        try await held.value
    }

    @Test func oneUsersManyAppIdsShareThatUsersLimitAndOtherUsersKeepTheirs() async throws {
        let limit = CostlyCallLimit(perApp: 2, perUser: 4)
        let open = Gate()
        var held: [Task<Void, any Error>] = []
        for n in 0..<4 { held.append(try await Self.hold(limit, Self.app("exe:/tmp/script\(n)", uid: 1001), until: open)) }
        #expect(await Self.refusal(limit, Self.app("exe:/tmp/script9", uid: 1001))?.name == LibraryInterface.Error.busy)
        #expect(await Self.refusal(limit, Self.app("exe:/tmp/script9", uid: 1002)) == nil)
        open.open()
        for task in held { try await task.value }
    }

    @Test func anAppThatSearchesAgainTheMomentItIsAnsweredIsPacedOthersAndTheOwnerAreNot() async throws {
        // A minute per call earned back: the test sees the burst end and nothing come back.
        let limit = CostlyCallLimit(perApp: 2, perUser: 4, burst: 3, interval: 60)
        for _ in 0..<3 { #expect(await Self.refusal(limit, Self.app("exe:/usr/bin/flood")) == nil) }
        let error = await Self.refusal(limit, Self.app("exe:/usr/bin/flood"))
        #expect(error?.name == LibraryInterface.Error.busy)
        #expect(error?.parameters(BusyError.self)?.hint.contains("3 searches in a row") == true, "\(String(describing: error))")
        #expect(await Self.refusal(limit, Self.app("exe:/usr/bin/viewer")) == nil, "another app has its own pace")
        for _ in 0..<5 { #expect(await Self.refusal(limit, Self.owner) == nil, "the owner is never paced") }

        // One call earned back every 50 ms, the default: a burst, then about one per interval.
        let paced = CostlyCallLimit(perApp: 2, perUser: 4, burst: 2, interval: 0.05)
        for _ in 0..<2 { #expect(await Self.refusal(paced, Self.app("exe:/usr/bin/typist")) == nil) }
        try await Task.sleep(for: .milliseconds(120))
        #expect(await Self.refusal(paced, Self.app("exe:/usr/bin/typist")) == nil, "earned back while it waited")
    }

    @Test func theOwnerReadsOnTheReservedLaneAndAppsOnTheSharedOne() {
        #expect(Self.owner.storeLane == .reserved)
        #expect(Self.app("exe:/usr/bin/viewer").storeLane == .shared)
    }
}

/// A held call never showed as running: the limit does not count calls.
private struct NotAdmittedAsRunning: Error {}

/// Lets waiting tasks go on once opened, without blocking a thread.
private final class Gate: Sendable {
    private let state = Mutex<(open: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state in
                if state.open { return true }
                state.waiting.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    func open() {
        let waiting = state.withLock { state in
            state.open = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }
}
