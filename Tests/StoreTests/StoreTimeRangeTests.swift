import FileSystem
import Foundation
import PhotoTestSupport
import Testing
@testable import Store

/// Nanoseconds since the epoch of an ISO 8601 date-time ("Z" or an offset).
private func ns(_ iso: String) throws -> Int64 {
    let date = try #require(ISO8601DateFormatter().date(from: iso))
    return Int64(date.timeIntervalSince1970) * 1_000_000_000
}

/// A bound for a wall clock in a zone `zoneHours` east of UTC (what photod derives from `--since`).
private func bound(_ wall: String, zoneHours: Int64) throws -> StoreTimeBound {
    let wallNs = try ns(wall + "Z")
    return StoreTimeBound(wallClock: wall, wallNs: wallNs, instantNs: wallNs - zoneHours * 3_600_000_000_000)
}

/// `ListAssets` time filters: the taken time as the camera wrote it, else the file's
/// modification time in the daemon's zone; in either order, page by page, through an index.
@Suite struct StoreTimeRangeTests {
    /// A photo taken at `taken` (nil: none), modified at `modified`.
    private func photo(_ name: String, taken: String?, takenNs: Int64?, modified: String) throws -> WriteBatch.Insert {
        WriteBatch.Insert(
            path: PathBytes("/lib/\(name).jpg"),
            stamp: FileStamp(device: 1, inode: UInt64(abs(name.hashValue) % 1_000_000), size: 1, mtimeNs: try ns(modified)),
            content: AssetContent(groupKey: "g", groupSpelling: "g", format: "jpeg", taken: taken, takenNs: takenNs))
    }

    private func june5Library() async throws -> (Store, TemporaryDirectory) {
        let dir = try TemporaryDirectory()
        let store = try await openStore(dir)
        var batch = WriteBatch()
        batch.inserts = [
            // The camera's clock says late on 5 June: that is its day, whatever the offset.
            try photo("wall", taken: "2021-06-05T23:30:00", takenNs: try ns("2021-06-05T23:30:00Z"), modified: "2024-01-01T00:00:00Z"),
            try photo("west", taken: "2021-06-05T23:30:00-07:00", takenNs: try ns("2021-06-05T23:30:00-07:00"),
                      modified: "2024-01-01T00:00:00Z"),
            try photo("east", taken: "2021-06-06T00:30:00+02:00", takenNs: try ns("2021-06-06T00:30:00+02:00"),
                      modified: "2024-01-01T00:00:00Z"),
            try photo("before", taken: "2021-06-04T23:59:59", takenNs: try ns("2021-06-04T23:59:59Z"), modified: "2021-06-05T12:00:00Z"),
            // No taken time: the modification time counts, in the daemon's zone (here UTC+2).
            try photo("file-in", taken: nil, takenNs: nil, modified: "2021-06-05T21:59:59Z"),
            try photo("file-out", taken: nil, takenNs: nil, modified: "2021-06-05T22:00:00Z"),
            try photo("file-early", taken: nil, takenNs: nil, modified: "2021-06-04T22:00:00Z"),
        ]
        _ = try await store.write { [batch] in try $0.apply(batch) }
        return (store, dir)
    }

    private func names(_ assets: [StoredAsset]) -> [String] {
        assets.map { $0.path.description.dropFirst(5).dropLast(4) }.map(String.init)
    }

    @Test func aDayIsTheCamerasDayOrTheLocalDayOfTheFileTime() async throws {
        let (store, dir) = try await june5Library()
        defer { withExtendedLifetime(dir) {} }
        let range = StoreTimeRange(since: try bound("2021-06-05T00:00:00", zoneHours: 2),
                                   until: try bound("2021-06-06T00:00:00", zoneHours: 2))
        let listed = try await store.read { try $0.assets(StoreListing(range: range), after: nil, limit: 100) }
        #expect(Set(names(listed)) == ["wall", "west", "file-in", "file-early"])
        let since = try await store.read { try $0.assets(StoreListing(range: StoreTimeRange(since: range.since, until: nil)),
                                           after: nil, limit: 100) }
        #expect(Set(names(since)) == ["wall", "west", "east", "file-in", "file-out", "file-early"])
        let until = try await store.read { try $0.assets(StoreListing(range: StoreTimeRange(since: nil, until: range.since)),
                                           after: nil, limit: 100) }
        #expect(Set(names(until)) == ["before"])
    }

    @Test(arguments: StoreSort.allCases, [false, true])
    func pagesCoverTheRangeOnceInEitherOrder(sort: StoreSort, descending: Bool) async throws {
        let dir = try TemporaryDirectory()
        let store = try await openStore(dir)
        defer { withExtendedLifetime(dir) {} }
        var batch = WriteBatch()
        for n in 0..<40 {
            // Repeated taken times exercise the id tie-break.
            let day = String(format: "2020-03-%02d", n % 20 + 1)
            batch.inserts.append(try photo("p\(n)", taken: day + "T12:00:00", takenNs: try ns(day + "T12:00:00Z"),
                                           modified: String(format: "2022-01-01T00:00:%02dZ", n)))
        }
        _ = try await store.write { [batch] in try $0.apply(batch) }
        let listing = StoreListing(sort: sort, descending: descending, range: StoreTimeRange(
            since: try bound("2020-03-05T00:00:00", zoneHours: 0), until: try bound("2020-03-15T00:00:00", zoneHours: 0)))
        var seen: [StoredAsset] = []
        var position: StorePosition?
        while true {
            let page = try await store.read { [position] in try $0.assets(listing, after: position, limit: 3) }
            guard let last = page.last else { break }
            seen += page
            switch sort {
            case .taken: position = StorePosition(value: .integer(last.content.takenNs ?? 0), id: last.id)
            case .modified: position = StorePosition(value: .integer(last.stamp.mtimeNs), id: last.id)
            case .path: position = StorePosition(value: .path(last.path), id: last.id)
            }
        }
        #expect(seen.count == 20, "days 5 to 14, two photos each")
        #expect(Set(seen.map(\.id)).count == 20)
        let keys: [String] = seen.map { asset in
            switch sort {
            case .taken: String(format: "%020lld|", asset.content.takenNs ?? 0) + asset.id
            case .modified: String(format: "%020lld|", asset.stamp.mtimeNs) + asset.id
            case .path: asset.path.description
            }
        }
        #expect(keys == (descending ? keys.sorted(by: >) : keys.sorted()))
    }

    @Test(arguments: [nil, "g"] as [String?])
    func aTimeRangeIsAnIndexRangeOnTheTakenOrder(group: String?) throws {
        let dir = try TemporaryDirectory()
        let store = try Store(path: dir.file("index.sqlite"))
        let range = StoreTimeRange(since: try bound("2021-06-05T00:00:00", zoneHours: 2),
                                   until: try bound("2021-06-06T00:00:00", zoneHours: 2))
        for descending in [false, true] {
            let listing = StoreListing(groupKey: group, descending: descending, range: range)
            let (sql, values) = listing.statement(after: StorePosition(value: .integer(0), id: "a"), limit: 50)
            let plan = try store.database.read { db -> String in
                let explain = try db.statement("EXPLAIN QUERY PLAN " + sql)
                try explain.bind(values)
                var lines: [String] = []
                while try explain.step() { lines.append(explain.text(3) ?? "") }
                return lines.joined(separator: "\n")
            }
            let index = group == nil ? "assets_by_taken" : "assets_by_group_taken"
            #expect(plan.contains("SEARCH a USING INDEX \(index) ("), "\(plan)")
            #expect(plan.contains("taken_key>? AND taken_key<?"), "\(plan)")
            // The index gives the order; only photos sharing a time are sorted, by id, among themselves.
            #expect(!plan.contains("TEMP B-TREE FOR ORDER BY"), "no sort of the range\n\(plan)")
            #expect(plan.contains("USE TEMP B-TREE FOR RIGHT PART OF ORDER BY"), "\(plan)")
        }
    }
}
