#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads photod's timestamps ("2024-03-01T12:00:00Z", UTC, whole seconds) back into seconds
/// since the epoch, without Foundation's date parsing or the local time zone.
enum UTCSeconds {
    /// The seconds `text` names, or nil when it is not exactly that form or not a real date.
    static func parse(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count == 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
              bytes[19] == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        // glibc's timegm: the proleptic Gregorian day count Store's ISOTime also computes, which
        // photoctl cannot link (it would bring SQLite along).
        var broken = tm()
        broken.tm_year = Int32(year - 1900)
        broken.tm_mon = Int32(month - 1)
        broken.tm_mday = Int32(day)
        broken.tm_hour = Int32(hour)
        broken.tm_min = Int32(minute)
        broken.tm_sec = Int32(second)
        return Int(timegm(&broken))
    }
}
