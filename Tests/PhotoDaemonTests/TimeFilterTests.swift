import Foundation
import PhotoAPI
import Store
import Testing
@testable import PhotoDaemon

/// Nanoseconds since the epoch of an ISO 8601 date-time with "Z" or an offset.
private func ns(_ iso: String) throws -> Int64 {
    Int64(try #require(ISO8601DateFormatter().date(from: iso)).timeIntervalSince1970) * 1_000_000_000
}

/// `ListAssets`' since and until: the forms accepted, and the bounds the store gets.
@Suite struct TimeFilterTests {
    private let plusTwo = TimeZone(secondsFromGMT: 7200)!

    @Test(arguments: [
        ("2021-06-05", DateBound.Period.day, 0, nil), ("2021-06-05T14:30", .minute, 0, nil),
        ("2021-06-05 14:30:07", .second, 7, nil), ("2021-06-05T14:30:07Z", .second, 7, 0),
        ("2021-06-05T14:30+02:00", .minute, 0, 7200), ("2021-06-05T14:30:07-0530", .second, 7, -19_800),
        ("2021-06-05T14:30:07+02", .second, 7, 7200), ("2024-02-29", .day, 0, nil),
    ] as [(String, DateBound.Period, Int, Int?)])
    func acceptedForms(text: String, period: DateBound.Period, second: Int, offset: Int?) throws {
        let date = try #require(DateBound(text))
        #expect((date.year, date.month, date.day) == (text.hasPrefix("2024") ? 2024 : 2021, text.hasPrefix("2024") ? 2 : 6,
                                                       text.hasPrefix("2024") ? 29 : 5))
        #expect(date.period == period)
        #expect(date.second == second)
        #expect(date.offsetSeconds == offset)
    }

    @Test(arguments: ["", "2021", "2021-6-5", "2021-06-5", "21-06-05", "2021-13-01", "2021-00-10", "2021-02-29",
                      "2021-04-31", "0000-01-01", "2021-06-05T", "2021-06-05T24:00", "2021-06-05T12:60",
                      "2021-06-05T12:00:60", "2021-06-05T12:00:00.5", "2021-06-05T12", "2021-06-05Z",
                      "2021-06-05T12:00+25:00", "2021-06-05T12:00+02:0", "2021-06-05T12:00 +02:00", "yesterday",
                      "２０２１-06-05", "2021-06-05T12:00:00Zjunk"])
    func refusedForms(text: String) {
        #expect(DateBound(text) == nil)
    }

    @Test func aDayRunsFromItsFirstSecondToTheNextDaysInTheDaemonsZone() throws {
        let since = TimeFilter.bound(try #require(DateBound("2021-06-05")), end: false, zone: plusTwo)
        #expect(since.wallClock == "2021-06-05T00:00:00")
        #expect(since.wallNs == (try ns("2021-06-05T00:00:00Z")))
        #expect(since.instantNs == (try ns("2021-06-05T00:00:00+02:00")))
        let until = TimeFilter.bound(try #require(DateBound("2021-06-05")), end: true, zone: plusTwo)
        #expect(until.wallClock == "2021-06-06T00:00:00")
        #expect(until.instantNs == (try ns("2021-06-06T00:00:00+02:00")))
        let minute = TimeFilter.bound(try #require(DateBound("2021-12-31T23:59")), end: true, zone: plusTwo)
        #expect(minute.wallClock == "2022-01-01T00:00:00", "until a minute: to its end")
    }

    @Test func aBoundWithAnOffsetIsMovedIntoTheDaemonsZone() throws {
        let bound = TimeFilter.bound(try #require(DateBound("2021-06-05T10:00:00Z")), end: false, zone: plusTwo)
        #expect(bound.wallClock == "2021-06-05T12:00:00")
        #expect(bound.instantNs == (try ns("2021-06-05T10:00:00Z")))
    }

    @Test func daylightSavingTimeIsTheZonesOnEachSideOfTheChange() throws {
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        let before = TimeFilter.bound(try #require(DateBound("2021-03-27T12:00")), end: false, zone: berlin)
        let after = TimeFilter.bound(try #require(DateBound("2021-03-28T12:00")), end: false, zone: berlin)
        #expect(before.instantNs == (try ns("2021-03-27T11:00:00Z")))
        #expect(after.instantNs == (try ns("2021-03-28T10:00:00Z")))
    }

    @Test func boundsPastTheYearsATakenTimeCanHoldStillCompareRight() throws {
        let end = TimeFilter.bound(try #require(DateBound("9999-12-31")), end: true, zone: plusTwo)
        #expect(end.wallClock == "9999-12-31T23:59:60", "after every taken time")
        let start = TimeFilter.bound(try #require(DateBound("0001-01-01T00:00+01:00")), end: false,
                                     zone: TimeZone(secondsFromGMT: -5 * 3600)!)
        #expect(start.wallClock == "0000-01-01T00:00:00", "before every taken time")
        #expect(start.instantNs == .min, "clamped: nanoseconds since 1970 do not reach year 1")
    }

    @Test func aTakenTimeOutsideWhatNanosecondsHoldHasNoKeyInsteadOfATrap() {
        #expect(ISOTime.nanoseconds(from: "1000-01-01T00:00:00") == nil)
        #expect(ISOTime.nanoseconds(from: "2262-05-01T00:00:00") == nil)
        #expect(ISOTime.nanoseconds(from: "2262-04-11T00:00:00") != nil)
        #expect(ISOTime.nanoseconds(from: "1970-01-01T00:00:01Z") == 1_000_000_000)
    }
}
