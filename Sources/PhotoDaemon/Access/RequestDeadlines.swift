#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The deadlines of pending requests (an app's authorization request, a change it asked for),
/// each kind waited for by one loop that runs as a child of `AuthorizationService`, so every
/// timer ends with the service group. `Key` names the request.
final class RequestDeadlines<Key: Sendable>: Sendable {
    /// One request's deadline.
    struct Deadline: Sendable {
        let key: Key
        let at: Date
    }

    private let deadlines: AsyncStream<Deadline>
    private let input: AsyncStream<Deadline>.Continuation

    init() {
        (deadlines, input) = AsyncStream.makeStream(of: Deadline.self)
    }

    /// Arms a timer for the request `key` ending at `at`.
    func schedule(_ key: Key, at: Date) {
        input.yield(Deadline(key: key, at: at))
    }

    /// Calls `expire` for each deadline once it has passed; runs until cancelled, and then
    /// drops the timers still waiting (the daemon is stopping; a request is not stored pending).
    func run(expire: @escaping @Sendable (Key, Date) async -> Void) async {
        await withDiscardingTaskGroup { group in
            for await deadline in deadlines {
                group.addTask {
                    guard (try? await Task.sleep(for: .seconds(max(0, deadline.at.timeIntervalSinceNow)))) != nil
                    else { return }
                    await expire(deadline.key, deadline.at)
                }
            }
        }
    }
}
