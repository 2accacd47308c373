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
        guard let (date, time, rest) = split(iso), rest == "Z",
              let seconds = WallClock.utcSeconds(date: date, time: time), let local = WallClock(seconds)
        else { return iso }
        return local.text + " " + local.offsetText
    }

    /// Seconds since 1970 of an ISO 8601 time that says its offset ("…Z", "…+02:00"); nil for
    /// other text.
    static func instant(_ iso: String) -> Int? {
        guard let (date, time, rest) = split(iso), let seconds = WallClock.utcSeconds(date: date, time: time)
        else { return nil }
        if rest == "Z" { return seconds }
        let sign = rest.first == "+" ? 1 : rest.first == "-" ? -1 : 0
        let parts = rest.dropFirst().split(separator: ":", omittingEmptySubsequences: false)
        guard sign != 0, parts.count == 2, parts.allSatisfy({ $0.utf8.count == 2 && $0.utf8.allSatisfy(isDigit) }),
              let hours = Int(parts[0]), let minutes = Int(parts[1])
        else { return nil }
        return seconds - sign * (hours * 60 + minutes) * 60
    }

    /// "4000 × 3000".
    static func dimensions(width: Int, height: Int) -> String {
        "\(width) × \(height)"
    }

    /// ISO 8601 "YYYY-MM-DDTHH:MM:SS" and what follows (an offset, "Z" or nothing).
    private static func split(_ iso: String) -> (Substring, Substring, Substring)? {
        let text = Substring(iso)
        // Printable ASCII, as photod sends times, is a character a byte: found by bytes, without
        // grapheme breaking (0.3M of `photoctl list`'s 20.5M instructions for 100 rows).
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            let bytes = text.utf8
            guard bytes.count >= 19, let t = bytes.firstIndex(of: UInt8(ascii: "T")),
                  bytes.distance(from: bytes.startIndex, to: t) == 10 else { return nil }
            let time = bytes.index(after: t)..<bytes.index(t, offsetBy: 9)
            return (text[..<t], text[time], text[time.upperBound...])
        }
        guard text.utf8.count >= 19, let t = text.firstIndex(of: "T"), text.distance(from: text.startIndex, to: t) == 10
        else { return nil }
        let time = text[text.index(after: t)...].prefix(8)
        guard time.count == 8 else { return nil }
        return (text[..<t], time, text[time.endIndex...])
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
}
