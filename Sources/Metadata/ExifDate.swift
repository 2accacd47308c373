/// Turns EXIF "YYYY:MM:DD HH:MM:SS" plus "+HH:MM" into ISO 8601 without Foundation (this runs once per file).
enum ExifDate {
    private static let colon = UInt8(ascii: ":")
    private static let zero = UInt8(ascii: "0")

    /// "2021-05-01T10:00:00", with the offset appended when it is valid; nil when the date is not a real one.
    static func iso8601(dateTime: [UInt8]?, offset: [UInt8]?) -> String? {
        guard let dateTime else { return nil }
        let value = dateTime.trimmingTrailingSpaces()
        guard value.count == 19,
            value[4] == colon || value[4] == UInt8(ascii: "-"),
            value[7] == value[4],
            value[10] == UInt8(ascii: " ") || value[10] == UInt8(ascii: "T"),
            value[13] == colon, value[16] == colon,
            let year = number(value, 0, 4), let month = number(value, 5, 2), let day = number(value, 8, 2),
            let hour = number(value, 11, 2), let minute = number(value, 14, 2), let second = number(value, 17, 2),
            year >= 1, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
            hour <= 23, minute <= 59, second <= 59
        else { return nil }

        var iso = value
        iso[4] = UInt8(ascii: "-")
        iso[7] = UInt8(ascii: "-")
        iso[10] = UInt8(ascii: "T")
        if let offset = validOffset(offset) {
            iso.append(contentsOf: offset)
        }
        return String(decoding: iso, as: UTF8.self)
    }

    /// "+HH:MM" or "-HH:MM" within the range real time zones use (UTC-12:00 to UTC+14:00, rounded out to 14).
    private static func validOffset(_ offset: [UInt8]?) -> [UInt8]? {
        guard let offset else { return nil }
        let value = offset.trimmingTrailingSpaces()
        guard value.count == 6,
            value[0] == UInt8(ascii: "+") || value[0] == UInt8(ascii: "-"),
            value[3] == colon,
            let hours = number(value, 1, 2), let minutes = number(value, 4, 2),
            hours <= 14, minutes <= 59
        else { return nil }
        return value
    }

    private static func number(_ bytes: [UInt8], _ start: Int, _ length: Int) -> Int? {
        var result = 0
        for byte in bytes[start..<(start + length)] {
            guard byte >= zero, byte <= zero + 9 else { return nil }
            result = result * 10 + Int(byte - zero)
        }
        return result
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2:
            let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            return leap ? 29 : 28
        case 4, 6, 9, 11:
            return 30
        default:
            return 31
        }
    }
}

extension [UInt8] {
    /// Cameras pad fixed-size text fields with spaces.
    fileprivate func trimmingTrailingSpaces() -> [UInt8] {
        guard let last = lastIndex(where: { $0 != 0x20 }) else { return [] }
        return last == count - 1 ? self : Array(self[...last])
    }
}
