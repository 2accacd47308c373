/// A date or date-time a client names as a time filter (`ListAssets` since and until), in ISO
/// 8601: `2021-06-05`, `2021-06-05T14:30`, `2021-06-05T14:30:00` (a space may stand for the
/// `T`), the times optionally followed by `Z` or an offset (`+02:00`, `+0200`, `+02`).
///
/// It names a period — a day, a minute or a second — so a filter can start at its beginning
/// (since) and end at its end (until): `until 2021-06-05` keeps all of 5 June.
public struct DateBound: Sendable, Equatable {
    /// How long a period the text names.
    public enum Period: Int64, Sendable {
        case day = 86_400, minute = 60, second = 1
    }

    public var year: Int
    public var month: Int
    public var day: Int
    public var hour = 0
    public var minute = 0
    public var second = 0
    public var period = Period.day
    /// Seconds east of UTC when the text gives an offset (`Z`: 0); nil for a local time.
    public var offsetSeconds: Int?

    /// The accepted forms, for messages.
    public static let forms = "a date (2021-06-05) or a date-time (2021-06-05T14:30 or 2021-06-05T14:30:00), "
        + "the time optionally followed by Z or an offset such as +02:00"

    /// Parses `text`; nil when it is none of the accepted forms or not a real date and time.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count >= 10, bytes.count <= 32, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              let year = Self.number(bytes[0..<4]), let month = Self.number(bytes[5..<7]),
              let day = Self.number(bytes[8..<10]), year >= 1, (1...12).contains(month),
              day >= 1, day <= Self.days(inMonth: month, of: year)
        else { return nil }
        (self.year, self.month, self.day) = (year, month, day)
        guard bytes.count > 10 else { return }
        guard bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " "), bytes.count >= 16,
              bytes[13] == UInt8(ascii: ":"), let hour = Self.number(bytes[11..<13]),
              let minute = Self.number(bytes[14..<16]), hour < 24, minute < 60
        else { return nil }
        (self.hour, self.minute, period) = (hour, minute, .minute)
        var rest = bytes[16...]
        if rest.first == UInt8(ascii: ":") {
            guard rest.count >= 3, let second = Self.number(rest.dropFirst().prefix(2)), second < 60 else { return nil }
            (self.second, period) = (second, .second)
            rest = rest.dropFirst(3)
        }
        guard !rest.isEmpty else { return }
        guard let offset = Self.offset(rest) else { return nil }
        offsetSeconds = offset
    }

    /// "Z", or a sign and hours with optional minutes ("+02", "+0200", "+02:00"), at most 23:59.
    private static func offset(_ text: ArraySlice<UInt8>) -> Int? {
        if text.count == 1, text.first == UInt8(ascii: "Z") || text.first == UInt8(ascii: "z") { return 0 }
        guard let sign = text.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
        var digits = text.dropFirst()
        if digits.count == 5, digits[digits.startIndex + 2] == UInt8(ascii: ":") {
            digits = digits.prefix(2) + digits.suffix(2)
        }
        guard digits.count == 2 || digits.count == 4, let hours = number(digits.prefix(2)),
              let minutes = digits.count == 4 ? number(digits.suffix(2)) : 0, hours < 24, minutes < 60
        else { return nil }
        return (hours * 3600 + minutes * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
    }

    private static func number(_ digits: some Collection<UInt8>) -> Int? {
        var value = 0
        for digit in digits {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(digit - UInt8(ascii: "0"))
        }
        return digits.isEmpty ? nil : value
    }

    private static func days(inMonth month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
