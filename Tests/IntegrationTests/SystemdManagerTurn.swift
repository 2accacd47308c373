/// Turns for the tests that start a systemd user manager of their own.
///
/// A manager started in this machine's root cgroup puts each unit's processes in a cgroup named
/// by the unit alone (`/background.slice/photod.service`), whatever mount namespace it runs in.
/// Two managers at once share that cgroup, and the one that stops its photod.service sends
/// SIGTERM to every process in it: the other test's photod stopped cleanly in the middle of its
/// run (NotifyUnitTests), or its image worker died before its first word (SystemdManagerTests).
/// So such tests take turns, whichever suites they are in.
actor SystemdManagerTurn {
    private static let shared = SystemdManagerTurn()
    private var taken = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Runs `body` while no other test runs a systemd user manager.
    static func run<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        await shared.take()
        do {
            let result = try await body()
            await shared.give()
            return result
        } catch {
            await shared.give()
            throw error
        }
    }

    private func take() async {
        guard taken else {
            taken = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func give() {
        if waiting.isEmpty {
            taken = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
