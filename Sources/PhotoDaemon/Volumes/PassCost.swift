#if canImport(Glibc)
import Glibc
#endif

/// What the last poll pass over one folder cost: Status shows it, so the per-pass budget that
/// paces the polls is seen rather than found in the debug log.
struct PassCost: Sendable, Equatable {
    /// When it ended, in nanoseconds since 1970: a wall-clock time, as Status says it.
    var endedNanoseconds: Int64
    /// How long the pass took.
    var spent: Duration
    /// Photos indexed under the folder once it was over: the files its listing was compared
    /// with. Nil when the index could not be read for it.
    var files: Int?
    /// The wait before the next pass when this one went over its budget (a quarter of the
    /// interval); nil when the next comes after the usual interval.
    var delayedWait: Duration?

    /// The wall clock now, in nanoseconds since 1970.
    static func wallClockNow() -> Int64 {
        var now = timespec()
        guard clock_gettime(CLOCK_REALTIME, &now) == 0 else { return 0 }
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}
