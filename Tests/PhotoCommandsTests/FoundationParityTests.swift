import Foundation
import PhotoAPI
import Testing
@testable import PhotoCommands

/// photoctl left full Foundation (issue 16) without changing a byte it prints: each replacement
/// gives what the Foundation call it replaced gave, checked here against that call.
@Suite struct FoundationParityTests {
    @Test(arguments: ["", " ", "\t a b \t", "\u{A0}x\u{3000}", "\u{2003}\u{202F}mid dle\u{205F}", " \n x \n ",
                      "\u{2028}x\u{2028}", " \u{301}x ", "\u{200B}x\u{200B}", "a,  b", "\u{1680}é\u{1680}"])
    func trimmingTakesTheWhiteSpaceFoundationTook(text: String) {
        #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces))
        let part = Substring("[" + text + "]").dropFirst().dropLast()
        #expect(part.trimmingWhitespace() == part.trimmingCharacters(in: .whitespaces))
    }

    @Test func everyScalarIsTrimmedOrKeptAsFoundationDid() {
        let differing = (UInt32(0)...0x10FFFF).compactMap(Unicode.Scalar.init).filter { scalar in
            let text = String(scalar) + "x"
            return text.trimmingWhitespace() != text.trimmingCharacters(in: .whitespaces)
        }
        #expect(differing.isEmpty, "\(differing.map { "U+" + String($0.value, radix: 16) })")
    }

    /// The LATEST cell of a file time as photoctl made it with Foundation's formatters.
    private static func foundationLatest(_ latest: String, in timeZone: TimeZone) -> String {
        let local = DateFormatter()
        local.locale = Locale(identifier: "en_US_POSIX")
        local.timeZone = timeZone
        local.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return (ISO8601DateFormatter().date(from: latest).map(local.string(from:)) ?? latest) + " (file)"
    }

    // photod writes file times in UTC ("…Z"); times with an offset are read too. (Text that is
    // not ISO 8601, which ICU sometimes read leniently, such as "+2:00", is now shown as sent.)
    @Test(arguments: ["2021-06-05T12:03:07Z", "2021-06-05T14:03:07+02:00", "2021-06-05T06:33:07-05:30",
                      "1969-12-31T23:59:59Z", "1970-01-01T00:00:00Z", "2021-03-28T01:30:00Z", "2021-10-31T00:30:00Z",
                      "1600-02-29T12:00:00Z", "9999-12-31T23:59:59Z", "2021-06-05T12:03:07", "2021-06-05T12:03:07.5Z",
                      "2021-06-05 12:03:07Z", "garbage", ""])
    func fileTimesAreShownAsFoundationShowedThem(latest: String) throws {
        let group = PhotoAPI.Group(name: "Scans", count: 1, fallback: false, latest: latest, latestSource: .modified)
        for zone in ["UTC", "Asia/Kolkata", "Europe/Berlin", "America/St_Johns"] {
            let timeZone = try #require(TimeZone(identifier: zone))
            #expect(GroupsText.Latest(timeZone: timeZone).text(group) == Self.foundationLatest(latest, in: timeZone), "\(zone)")
        }
    }

    @Test(arguments: ["UTC", "Asia/Kolkata", "Europe/Berlin", "America/St_Johns", "Pacific/Chatham", "Australia/Lord_Howe"])
    func wallClocksReadAsDateFormatterWroteThem(zone: String) throws {
        let timeZone = try #require(TimeZone(identifier: zone))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        // Both sides of daylight saving time, before 1970, and the far ends photod can send.
        for seconds in [0, -1, 1_616_893_200, 1_635_645_600, 1_622_894_587, -2_000_000_000, 253_402_300_799] {
            let clock = try #require(WallClock(seconds, in: timeZone))
            #expect(clock.text == formatter.string(from: Date(timeIntervalSince1970: Double(seconds))), "\(seconds)")
            #expect(clock.offset == timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds))))
        }
    }

    @Test func digitsArePaddedAsPrintfPadsThem() {
        for value in [0, 7, -7, 42, 999, 2021, 12345, -12345] {
            #expect(WallClock.digits(value, 4) == String(format: "%04d", value))
            #expect(WallClock.digits(value, 2) == String(format: "%02d", value))
        }
    }
}
