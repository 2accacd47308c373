import Foundation

/// CPU time the calling thread spends, for tests that bound how much work a call does: wall
/// time would also count the time the machine gave to tests running side by side.
public enum ThreadCPUTime {
    /// The calling thread's CPU time spent in `body`.
    public static func measure(_ body: () -> Void) -> Duration {
        let start = now()
        body()
        return now() - start
    }

    private static func now() -> Duration {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return .seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec)
    }
}
