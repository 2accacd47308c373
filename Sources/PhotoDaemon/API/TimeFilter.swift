#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PhotoAPI
import Store
import Varlink

/// `ListAssets`' since and until as the store compares them.
///
/// A photo with a taken time counts by it as the camera wrote it: cameras keep local time and
/// most record no offset, so the day a photo shows is the day it was taken. One without counts
/// by its modification time, an instant, read in photod's local time zone. A bound is a wall
/// clock in that zone (one written with an offset is moved into it), so "5 June" is 5 June for both.
enum TimeFilter {
    /// The range `since` to `until` in `zone`; nil when neither is given.
    static func range(since: String?, until: String?, zone: TimeZone) throws(VarlinkError) -> StoreTimeRange? {
        guard since != nil || until != nil else { return nil }
        return StoreTimeRange(since: try bound(since, "since", end: false, zone: zone),
                              until: try bound(until, "until", end: true, zone: zone))
    }

    /// The start (or, with `end`, the end) of the period `text` names, or InvalidParameter naming `parameter`.
    private static func bound(_ text: String?, _ parameter: String, end: Bool, zone: TimeZone) throws(VarlinkError)
        -> StoreTimeBound? {
        guard let text else { return nil }
        guard let date = DateBound(text) else { throw VarlinkError.invalidParameter(parameter) }
        return bound(date, end: end, zone: zone)
    }

    /// The start of `date`'s period, or with `end` the first second after it, in `zone`.
    static func bound(_ date: DateBound, end: Bool, zone: TimeZone) -> StoreTimeBound {
        var wall = ISOTime.seconds(year: Int64(date.year), month: Int64(date.month), day: Int64(date.day),
                                   hour: Int64(date.hour), minute: Int64(date.minute), second: Int64(date.second))
        if end { wall += date.period.rawValue }
        let instant: Int64
        if let offset = date.offsetSeconds {
            instant = wall - Int64(offset)
            wall = instant + Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant))))
        } else {
            // The zone's offset at the instant itself: near a daylight-saving change, the
            // offset of the wall clock read as UTC can be the other one.
            let guess = wall - Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(wall))))
            instant = wall - Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(guess))))
        }
        return StoreTimeBound(wallClock: wallClock(wall), wallNs: nanoseconds(wall), instantNs: nanoseconds(instant))
    }

    /// The wall clock as `taken` spells it; past the years `taken` can hold, a text beyond
    /// every taken time on that side, so the comparison stays right.
    private static func wallClock(_ seconds: Int64) -> String {
        if seconds < ISOTime.seconds(year: 1, month: 1, day: 1, hour: 0, minute: 0, second: 0) {
            return "0000-01-01T00:00:00"
        }
        if seconds >= ISOTime.seconds(year: 10_000, month: 1, day: 1, hour: 0, minute: 0, second: 0) {
            return "9999-12-31T23:59:60"
        }
        return ISOTime.wallClock(seconds: seconds)
    }

    private static func nanoseconds(_ seconds: Int64) -> Int64 {
        let (value, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? (seconds < 0 ? .min : .max) : value
    }
}
