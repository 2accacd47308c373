#if canImport(Glibc)
import Glibc
#endif

/// A test knob, as `PHOTOD_THUMBNAILER_MEMORY_MB` is the worker's: `PHOTOD_TEST_READ_DELAY_MS=N`
/// makes every chunk of files a reconcile reads wait N ms (at most 60 s) first, so that an
/// integration test can watch a reconcile in progress (`photoctl groups` saying "still
/// indexing") through the real binaries. Unset, as it always is outside tests: no wait at all.
enum ReadDelayKnob {
    /// The wait before each chunk; nil when the knob is unset or not a positive number.
    static let perChunk: Duration? = {
        guard let text = getenv("PHOTOD_TEST_READ_DELAY_MS").map({ String(cString: $0) }),
              let milliseconds = Int(text), milliseconds > 0
        else { return nil }
        return .milliseconds(min(milliseconds, 60_000))
    }()
}
