#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The deadlines of pending authorization requests, waited for by one loop that runs as a
/// child of `AuthorizationService`, so every timer ends with the service group.
final class RequestDeadlines: Sendable {
    /// One request's deadline.
    struct Deadline: Sendable {
        let app: AppKey
        let at: Date
    }

    private let deadlines: AsyncStream<Deadline>
    private let input: AsyncStream<Deadline>.Continuation

    init() {
        (deadlines, input) = AsyncStream.makeStream(of: Deadline.self)
    }

    /// Arms a timer for `app`'s request ending at `at`.
    func schedule(_ app: AppKey, at: Date) {
        input.yield(Deadline(app: app, at: at))
    }

    /// Calls `expire` for each deadline once it has passed; runs until cancelled, and then
    /// drops the timers still waiting (the daemon is stopping; a request is not stored pending).
    func run(expire: @escaping @Sendable (AppKey, Date) async -> Void) async {
        await withDiscardingTaskGroup { group in
            for await deadline in deadlines {
                group.addTask {
                    guard (try? await Task.sleep(for: .seconds(max(0, deadline.at.timeIntervalSinceNow)))) != nil
                    else { return }
                    await expire(deadline.app, deadline.at)
                }
            }
        }
    }
}
