#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A moment as a wall clock shows it, in the system's time zone (`TZ` respected, read from the
/// tz database by the C library) or at a given `TimeZone`'s offset. Not Foundation's
/// formatters: their named time zones need ICU, which photoctl does not link.
struct WallClock: Equatable {
    /// "2024-03-01 13:00:00".
    let text: String
    /// Seconds east of UTC.
    let offset: Int

    /// `seconds` since 1970 on the clock of `timeZone`, or of the system's zone when nil.
    init?(_ seconds: Int, in timeZone: TimeZone? = nil) {
        var moment = time_t(seconds)
        var clock = tm()
        if let timeZone {
            offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds)))
            moment += time_t(offset)
            guard gmtime_r(&moment, &clock) != nil else { return nil }
        } else {
            tzset()
            guard localtime_r(&moment, &clock) != nil else { return nil }
            offset = clock.tm_gmtoff
        }
        text = Self.digits(Int(clock.tm_year) + 1900, 4) + "-" + Self.digits(Int(clock.tm_mon) + 1, 2) + "-"
            + Self.digits(Int(clock.tm_mday), 2) + " " + Self.digits(Int(clock.tm_hour), 2) + ":"
            + Self.digits(Int(clock.tm_min), 2) + ":" + Self.digits(Int(clock.tm_sec), 2)
    }

    /// The offset as "+01:00" or "-05:30".
    var offsetText: String {
        let minutes = abs(offset) / 60
        return (offset < 0 ? "-" : "+") + Self.digits(minutes / 60, 2) + ":" + Self.digits(minutes % 60, 2)
    }

    /// Seconds since 1970 of a UTC date ("2024-03-01") and time ("12:00:00"); nil when either
    /// is not three numbers.
    static func utcSeconds(date: Substring, time: Substring) -> Int? {
        let d = date.split(separator: "-").compactMap { Int32($0) }
        let t = time.split(separator: ":").compactMap { Int32($0) }
        guard d.count == 3, t.count == 3 else { return nil }
        var utc = tm()
        utc.tm_year = d[0] - 1900
        utc.tm_mon = d[1] - 1
        utc.tm_mday = d[2]
        utc.tm_hour = t[0]
        utc.tm_min = t[1]
        utc.tm_sec = t[2]
        return Int(timegm(&utc))
    }

    /// `value` in at least `width` characters, zeros in front as printf's `%0*d` puts them.
    static func digits(_ value: Int, _ width: Int) -> String {
        let magnitude = String(value.magnitude)
        let sign = value < 0 ? "-" : ""
        return sign + String(repeating: "0", count: max(0, width - sign.count - magnitude.count)) + magnitude
    }
}
