import Foundation
import PhotoAPI

/// Values as people read them: sizes, orientations, times and where a description came from.
enum HumanFormat {
    /// A size in SI units as GNOME and `ls --si` show it: "512 B", "1.0 kB", "4.2 MB" (powers
    /// of 1000, one decimal, rounded half up; a value that rounds to 1000 moves to the next unit).
    static func size(_ bytes: Int) -> String {
        guard bytes >= 1000 else { return "\(bytes) B" }
        let units = ["kB", "MB", "GB", "TB", "PB", "EB"]
        var unit = 1000
        for (index, name) in units.enumerated() {
            // Tenths of this unit, by integer division so no value is misrounded or overflows.
            let tenth = unit / 10
            let (whole, rest) = bytes.quotientAndRemainder(dividingBy: tenth)
            let tenths = whole + (rest * 2 >= tenth ? 1 : 0)
            if tenths < 10_000 || index == units.count - 1 {
                return "\(tenths / 10).\(tenths % 10) \(name)"
            }
            unit *= 1000
        }
        return "\(bytes) B"
    }

    /// The EXIF orientation as ExifTool names it; "Unknown (9)" for a value EXIF does not define.
    static func orientation(_ value: Int) -> String {
        switch value {
        case 1: "Horizontal (normal)"
        case 2: "Mirror horizontal"
        case 3: "Rotate 180"
        case 4: "Mirror vertical"
        case 5: "Mirror horizontal and rotate 270 CW"
        case 6: "Rotate 90 CW"
        case 7: "Mirror horizontal and rotate 90 CW"
        case 8: "Rotate 270 CW"
        default: "Unknown (\(value))"
        }
    }

    /// Where a description was read from, as the file's metadata names it.
    static func source(_ source: DescriptionSource) -> String {
        switch source {
        case .exif: "EXIF ImageDescription"
        case .xmp: "XMP dc:description"
        case .iptc: "IPTC Caption-Abstract"
        case .sidecar: "XMP sidecar"
        }
    }

    /// A taken time as the file records it, "2021-06-05 14:03:22 +02:00", or without the
    /// offset when the file has none (the camera's clock, zone unknown); other text as it is.
    static func taken(_ iso: String) -> String {
        guard let (date, time, rest) = split(iso) else { return iso }
        return rest.isEmpty ? "\(date) \(time)" : "\(date) \(time) \(rest == "Z" ? "+00:00" : rest)"
    }

    /// Whether a taken time carries its offset from UTC.
    static func hasOffset(_ iso: String) -> Bool {
        guard let (_, _, rest) = split(iso) else { return false }
        return !rest.isEmpty
    }

    /// A UTC time ("2024-03-01T12:00:00Z", photod's modified times) in local time (`TZ`
    /// respected) with its offset: "2024-03-01 13:00:00 +01:00"; other text as it is.
    static func localTime(_ iso: String) -> String {
        guard let (date, time, rest) = split(iso), rest == "Z" else { return iso }
        let d = date.split(separator: "-").compactMap { Int32($0) }
        let t = time.split(separator: ":").compactMap { Int32($0) }
        guard d.count == 3, t.count == 3 else { return iso }
        var utc = tm()
        utc.tm_year = d[0] - 1900
        utc.tm_mon = d[1] - 1
        utc.tm_mday = d[2]
        utc.tm_hour = t[0]
        utc.tm_min = t[1]
        utc.tm_sec = t[2]
        var seconds = timegm(&utc)
        tzset()
        var local = tm()
        guard localtime_r(&seconds, &local) != nil else { return iso }
        let offset = local.tm_gmtoff
        let sign = offset < 0 ? "-" : "+"
        let minutes = abs(offset) / 60
        return String(format: "%04d-%02d-%02d %02d:%02d:%02d ", local.tm_year + 1900, local.tm_mon + 1, local.tm_mday,
                      local.tm_hour, local.tm_min, local.tm_sec)
            + sign + two(minutes / 60) + ":" + two(minutes % 60)
    }

    /// "4000 × 3000".
    static func dimensions(width: Int, height: Int) -> String {
        "\(width) × \(height)"
    }

    /// ISO 8601 "YYYY-MM-DDTHH:MM:SS" and what follows (an offset, "Z" or nothing).
    private static func split(_ iso: String) -> (Substring, Substring, Substring)? {
        let text = Substring(iso)
        guard text.utf8.count >= 19, let t = text.firstIndex(of: "T"), text.distance(from: text.startIndex, to: t) == 10
        else { return nil }
        let time = text[text.index(after: t)...].prefix(8)
        guard time.count == 8 else { return nil }
        return (text[..<t], time, text[time.endIndex...])
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
