#if canImport(Glibc)
import Glibc
#endif

/// The local date and time as the import rules read it ("2026-11-28T17:05:09"): the folder of a
/// photo that says nothing of when it was taken, and the name of one given no usable name.
enum LocalClock {
    /// Now, in photod's local time zone.
    static func now() -> String {
        var seconds = time(nil)
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return "1970-01-01T00:00:00" }
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))"
            + "T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
    }
}
