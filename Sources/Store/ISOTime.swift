/// ISO 8601 conversions done by hand: they run once per asset, and need no time zone database.
/// In the store, which writes a camera time as its key when the two agree (`AssetEncoding`).
public enum ISOTime {
    /// "2024-03-01T12:00:00Z" (UTC, whole seconds) for nanoseconds since the epoch.
    public static func utcString(nanoseconds: Int64) -> String {
        let seconds = nanoseconds >= 0 ? nanoseconds / 1_000_000_000 : (nanoseconds - 999_999_999) / 1_000_000_000
        return wallClock(seconds: seconds) + "Z"
    }

    /// Nanoseconds since the epoch for "YYYY-MM-DDTHH:MM:SS" with an optional "±HH:MM" or "Z";
    /// a date without an offset is taken as UTC (it is only used for ordering).
    public static func nanoseconds(from text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 19, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
              let year = number(bytes[0..<4]), let month = number(bytes[5..<7]), let day = number(bytes[8..<10]),
              let hour = number(bytes[11..<13]), let minute = number(bytes[14..<16]),
              let second = number(bytes[17..<19]),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var offsetSeconds: Int64 = 0
        let rest = bytes[19...]
        if rest.count == 6, let sign = rest.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"),
           let offsetHour = number(rest.dropFirst().prefix(2)), let offsetMinute = number(rest.suffix(2)) {
            offsetSeconds = (offsetHour * 3600 + offsetMinute * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
        }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        // Nanoseconds since 1970 in 64 bits reach the years 1677 to 2262; a photo may say 0001.
        let (nanoseconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? nil : nanoseconds
    }

    /// "YYYY-MM-DDTHH:MM:SS" for seconds since the epoch read as UTC (a wall clock without a zone).
    public static func wallClock(seconds: Int64) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        guard (0...9999).contains(year) else {
            return four(year) + "-" + two(month) + "-" + two(day) + "T" + two(secondOfDay / 3600) + ":"
                + two(secondOfDay / 60 % 60) + ":" + two(secondOfDay % 60)
        }
        // Byte by byte: the store writes one for every photo it reads back (`AssetEncoding`).
        var text: [UInt8] = []
        text.reserveCapacity(19)
        let parts: [(value: Int64, divisor: Int64, then: UInt8?)] = [
            (year, 1000, UInt8(ascii: "-")), (month, 10, UInt8(ascii: "-")), (day, 10, UInt8(ascii: "T")),
            (secondOfDay / 3600, 10, UInt8(ascii: ":")), (secondOfDay / 60 % 60, 10, UInt8(ascii: ":")), (secondOfDay % 60, 10, nil),
        ]
        for part in parts {
            var divisor = part.divisor
            while divisor > 0 {
                text.append(UInt8(ascii: "0") + UInt8(part.value / divisor % 10))
                divisor /= 10
            }
            if let separator = part.then { text.append(separator) }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Seconds since the epoch of a wall clock read as UTC.
    public static func seconds(year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64) -> Int64 {
        daysFromCivil(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
    }

    private static func number(_ digits: some Collection<UInt8>) -> Int64? {
        var value: Int64 = 0
        for digit in digits {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int64(digit - UInt8(ascii: "0"))
        }
        return digits.isEmpty ? nil : value
    }

    private static func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }

    private static func four(_ value: Int64) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    // Howard Hinnant's days-from-civil and its inverse (proleptic Gregorian calendar).
    private static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
