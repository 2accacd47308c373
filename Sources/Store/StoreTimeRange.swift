import SQLite

/// One end of a time filter, in the two forms the store compares photos with.
public struct StoreTimeBound: Sendable, Equatable {
    /// The bound as a wall clock, "YYYY-MM-DDTHH:MM:SS": compared with a photo's `taken` as the
    /// camera wrote it (its first 19 characters, any recorded offset aside).
    public var wallClock: String
    /// That wall clock in nanoseconds since the epoch read as UTC, the way `taken_key` holds a
    /// taken time without an offset.
    public var wallNs: Int64
    /// The instant the wall clock names in the daemon's time zone: compared with the
    /// modification time of a photo without `taken`.
    public var instantNs: Int64

    /// Creates a bound.
    public init(wallClock: String, wallNs: Int64, instantNs: Int64) {
        self.wallClock = wallClock
        self.wallNs = wallNs
        self.instantNs = instantNs
    }
}

/// Photos from `since` (inclusive) to `until` (exclusive): by the taken time as the camera
/// wrote it, else by the modification time in the daemon's time zone.
public struct StoreTimeRange: Sendable, Equatable {
    public var since: StoreTimeBound?
    public var until: StoreTimeBound?

    /// Creates a range; either end may be open.
    public init(since: StoreTimeBound?, until: StoreTimeBound?) {
        self.since = since
        self.until = until
    }

    /// How far a recorded offset moves a taken time's key from its wall clock at most
    /// (`ExifDate` keeps offsets up to ±14:59).
    static let offsetSlack: Int64 = 15 * 3600 * 1_000_000_000

    /// Conditions on `assets a` and their values. Each end is a range on `taken_key`, which the
    /// taken-order indexes answer, wide enough for every photo that may belong, and then the
    /// exact test of each photo in the range: its wall clock, or its modification instant. A
    /// taken time stored as '' is `taken_key` written out (`AssetEncoding`): its wall clock
    /// compares as `taken_key` with the bound's wall clock read as UTC, both whole seconds.
    var conditions: (sql: [String], values: [SQLiteValue]) {
        var sql: [String] = []
        var values: [SQLiteValue] = []
        if let since {
            sql.append("a.taken_key >= ?")
            values.append(.integer(min(since.wallNs.subtractingClamped(Self.offsetSlack), since.instantNs)))
            sql.append("""
                (CASE WHEN a.taken IS NULL THEN a.taken_key >= ? WHEN a.taken = '' THEN a.taken_key >= ? \
                ELSE substr(a.taken, 1, 19) >= ? END)
                """)
            values += [.integer(since.instantNs), .integer(since.wallNs), .text(since.wallClock)]
        }
        if let until {
            sql.append("a.taken_key < ?")
            values.append(.integer(max(until.wallNs.addingClamped(Self.offsetSlack), until.instantNs)))
            sql.append("""
                (CASE WHEN a.taken IS NULL THEN a.taken_key < ? WHEN a.taken = '' THEN a.taken_key < ? \
                ELSE substr(a.taken, 1, 19) < ? END)
                """)
            values += [.integer(until.instantNs), .integer(until.wallNs), .text(until.wallClock)]
        }
        return (sql, values)
    }
}

extension Int64 {
    fileprivate func addingClamped(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }

    fileprivate func subtractingClamped(_ other: Int64) -> Int64 {
        let (difference, overflow) = subtractingReportingOverflow(other)
        return overflow ? .min : difference
    }
}
