import Testing
@testable import PhotoCommands

/// photod's UTC timestamps read back into seconds since the epoch, and anything else refused.
struct UTCSecondsTests {
    @Test(arguments: [
        ("1970-01-01T00:00:00Z", 0), ("2024-03-01T12:00:00Z", 1_709_294_400), ("2000-02-29T23:59:59Z", 951_868_799),
        ("1969-12-31T23:59:59Z", -1), ("0000-01-01T00:00:00Z", -62_167_219_200),
    ])
    func photodsTimestampsAreReadAsUTC(text: String, seconds: Int) {
        #expect(UTCSeconds.parse(text) == seconds)
    }

    @Test(arguments: ["2024-03-01 12:00:00Z", "2024-03-01T12:00:00", "2024-13-01T12:00:00Z", "2024-03-01T24:00:00Z",
                      "2024-03-0xT12:00:00Z", "", "2024-03-01T12:00:00+01:00"])
    func anythingElseIsRefused(text: String) {
        #expect(UTCSeconds.parse(text) == nil)
    }
}
