#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PhotoAPI

/// A `--since`/`--until` value as people type it, journalctl-style: an ISO 8601 date or
/// date-time (sent as given), or a moment relative to now ("today", "yesterday", "now",
/// "2 weeks ago", "-3d"), turned into the ISO 8601 bound photod takes.
enum DateArgument {
    /// The accepted forms, for messages and help.
    static let forms = "a date (2021-06-05), a date-time (2021-06-05T14:30[:00][Z|+02:00]), today, yesterday, "
        + "tomorrow, now, or a time ago (\"2 weeks ago\", \"3 days ago\", \"-2d\", \"-12h\")"

    /// Units of "N UNIT ago" and "-NUNIT": seconds for the fixed ones, months for calendar ones.
    private enum Unit {
        case seconds(Int), months(Int)
    }

    private static let units: [String: Unit] = [
        "s": .seconds(1), "sec": .seconds(1), "second": .seconds(1), "seconds": .seconds(1),
        "m": .seconds(60), "min": .seconds(60), "minute": .seconds(60), "minutes": .seconds(60),
        "h": .seconds(3600), "hour": .seconds(3600), "hours": .seconds(3600),
        "d": .seconds(86_400), "day": .seconds(86_400), "days": .seconds(86_400),
        "w": .seconds(604_800), "week": .seconds(604_800), "weeks": .seconds(604_800),
        "month": .months(1), "months": .months(1), "year": .months(12), "years": .months(12), "y": .months(12),
    ]

    /// The largest count in "N UNIT ago": 10,000 years back is before any photograph.
    private static let maximumCount = 1_000_000

    /// The bound `text` names, as ISO 8601 text for ListAssets, on the local clock at `now`
    /// (seconds since 1970); nil when it is none of `forms`.
    static func resolve(_ text: String, now: Int) -> String? {
        if DateBound(text) != nil { return text }
        let words = text.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        switch words {
        case ["today"]: return localDay(now, addingDays: 0)
        case ["yesterday"]: return localDay(now, addingDays: -1)
        case ["tomorrow"]: return localDay(now, addingDays: 1)
        case ["now"]: return localMoment(now)
        case let words where words.count == 3 && words[2] == "ago":
            return ago(count: words[0], unit: words[1], now: now)
        case let words where words.count == 2 && words[1] == "ago":
            // "2weeks ago", "3d ago".
            guard let split = words[0].firstIndex(where: { !$0.isNumber }) else { return nil }
            return ago(count: String(words[0][..<split]), unit: String(words[0][split...]), now: now)
        case let words where words.count == 1 && words[0].hasPrefix("-"):
            let body = words[0].dropFirst()
            guard let split = body.firstIndex(where: { !$0.isNumber }) else { return nil }
            return ago(count: String(body[..<split]), unit: String(body[split...]), now: now)
        default: return nil
        }
    }

    /// The moment `count` `unit`s before `now`, as a date-time with seconds and offset.
    private static func ago(count: String, unit: String, now: Int) -> String? {
        guard let number = Int(count), (0...maximumCount).contains(number), let unit = units[unit] else { return nil }
        switch unit {
        case .seconds(let seconds):
            return localMoment(now - number * seconds)
        case .months(let months):
            // A calendar step: "1 month ago" on 31 March is 3 March, as mktime normalizes it.
            guard var clock = localClock(now) else { return nil }
            clock.tm_mon -= Int32(clamping: number * months)
            clock.tm_isdst = -1
            let moment = mktime(&clock)
            return moment == -1 ? nil : localMoment(Int(moment))
        }
    }

    /// The local date `days` days from `now`'s, as "2021-06-05" (a whole day as a bound).
    private static func localDay(_ now: Int, addingDays days: Int) -> String? {
        guard var clock = localClock(now) else { return nil }
        // Noon, so a day of 23 or 25 hours (a clock change) still moves one date.
        clock.tm_mday += Int32(days)
        clock.tm_hour = 12
        clock.tm_isdst = -1
        let moment = mktime(&clock)
        guard moment != -1, let wall = WallClock(Int(moment)) else { return nil }
        return String(wall.text.prefix(10))
    }

    /// `seconds` as a local date-time with its offset: "2021-06-05T14:30:00+02:00".
    private static func localMoment(_ seconds: Int) -> String? {
        guard let wall = WallClock(seconds) else { return nil }
        return wall.text.replacingFirstSpace(with: "T") + wall.offsetText
    }

    private static func localClock(_ seconds: Int) -> tm? {
        var moment = time_t(seconds)
        var clock = tm()
        tzset()
        return localtime_r(&moment, &clock) == nil ? nil : clock
    }

    /// The seconds since 1970 at which `bound` starts, and at which it ends (its day, minute or
    /// second over), reading one without an offset on the local clock: to see an inverted range.
    static func span(of bound: DateBound) -> (start: Int, end: Int)? {
        var clock = tm()
        clock.tm_year = Int32(bound.year - 1900)
        clock.tm_mon = Int32(bound.month - 1)
        clock.tm_mday = Int32(bound.day)
        clock.tm_hour = Int32(bound.hour)
        clock.tm_min = Int32(bound.minute)
        clock.tm_sec = Int32(bound.second)
        let start: Int
        if let offset = bound.offsetSeconds {
            start = Int(timegm(&clock)) - offset
        } else {
            clock.tm_isdst = -1
            start = Int(mktime(&clock))
        }
        return (start, start + Int(bound.period.rawValue))
    }
}

extension String {
    /// The text with its first space replaced: "2021-06-05 14:30:00" as "2021-06-05T14:30:00".
    fileprivate func replacingFirstSpace(with replacement: String) -> String {
        guard let space = firstIndex(of: " ") else { return self }
        return self[..<space] + replacement + self[index(after: space)...]
    }
}
