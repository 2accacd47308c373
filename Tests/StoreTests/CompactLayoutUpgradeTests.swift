import FileSystem
import Foundation
import PhotoTestSupport
import SQLite
import Testing
@testable import Store

/// Migration 9 converts an index made with schema 8 in place: every asset keeps its id, path,
/// stamp and content, every group its name, count and newest photo, the change log its tokens,
/// and search finds what it found.
@Suite struct CompactLayoutUpgradeTests {
    /// One schema-8 row: what the old code would have stored.
    private struct OldRow {
        var id: String
        var path: [UInt8]
        var group: String
        var spelling: String
        var description: String?
        var source: String?
        var format: String
        var taken: String?
        var takenKey: Int64
        var make: String?
        var model: String?
        var n: Int64
        var sidecar: Int64 = 0
        var candidate: Int?
        var size: (Int, Int, Int)?

        var asset: StoredAsset {
            StoredAsset(
                id: id, path: PathBytes(path),
                stamp: FileStamp(device: 7, inode: UInt64(n), size: 100 + n, mtimeNs: 1_600_000_000_000_000_000 + n, sidecar: sidecar),
                groupName: "", content: AssetContent(
                    groupKey: group, groupSpelling: spelling, description: description, descriptionSource: source,
                    format: format, taken: taken, takenNs: taken == nil ? nil : takenKey, width: size?.0,
                    height: size?.1, orientation: size?.2, make: make, model: model, sidecarCandidate: candidate))
        }
    }

    private static let rows: [OldRow] = [
        OldRow(id: "aaaaaaaaaaaaaaaa", path: Array("/lib/a.jpg".utf8), group: "Beach", spelling: "Beach",
               description: "Beach", source: "exif", format: "jpeg", taken: "2021-06-05T10:00:00",
               takenKey: 1_622_887_200_000_000_000, make: "Canon", model: "EOS 80D", n: 1, size: (640, 480, 1)),
        OldRow(id: "bbbbbbbbbbbbbbbb", path: Array("/lib/sub/b.jpg".utf8), group: "Beach", spelling: "Beach",
               description: "  Beach ", source: "xmp", format: "png", taken: "2021-06-05T10:00:00+02:00",
               takenKey: 1_622_880_000_000_000_000, make: "Canon", model: nil, n: 2, sidecar: 5, candidate: 1),
        OldRow(id: "cccccccccccccccc", path: Array("/lib/sub0.jpg".utf8), group: "hike", spelling: "Hike",
               description: "Hike", source: "iptc", format: "heif", taken: "2019-01-01T00:00:00",
               takenKey: 1_546_300_800_500_000_000, make: nil, model: nil, n: 3, size: (1, 2, 8)),
        OldRow(id: "dddddddddddddddd", path: Array("/lib/zz/é.jpg".utf8), group: "hike", spelling: "HIKE",
               description: "HIKE", source: "sidecar", format: "a-format-of-tomorrow", taken: nil,
               takenKey: 1_600_000_000_000_000_004, make: nil, model: "X-T3", n: 4),
        OldRow(id: "legacy-id-0001", path: Array("/other/".utf8) + [0xFF] + Array(".jpg".utf8), group: "",
               spelling: "Other", description: nil, source: nil, format: "unknown", taken: "1969-07-20T20:17:40",
               takenKey: -14_182_940_000_000_000, make: "Hasselblad", model: "500EL", n: 5),
        OldRow(id: "eeeeeeeeeeeeeeee", path: Array("/lib/sub/deeper/c.jpg".utf8), group: "", spelling: "Other",
               description: "OLYMPUS DIGITAL CAMERA", source: "exif", format: "tiff", taken: nil,
               takenKey: 1_600_000_000_000_000_006, make: "OLYMPUS", model: "E-M1", n: 6),
    ]

    /// An index as the code before migration 9 made it, holding `rows`, three logged changes
    /// and a permission record; returns its path.
    private func oldIndex(in dir: TemporaryDirectory) throws -> String {
        let path = dir.file("state/index.sqlite")
        try FileManager.default.createDirectory(atPath: dir.file("state"), withIntermediateDirectories: true)
        let db = try SQLiteConnection(path: path, create: true)
        try db.execute("PRAGMA auto_vacuum = INCREMENTAL")
        for (index, sql) in Schema.migrations.enumerated() {
            try db.execute(sql)
            try db.execute("PRAGMA user_version = \(index + 1)")
        }
        #expect(Schema.migrations.count == 8)
        for row in Self.rows {
            let asset = row.asset
            try db.statement("""
                INSERT INTO assets(id, path, device, inode, size, mtime_ns, sidecar, group_key, group_spelling,
                  description, description_source, format, taken, taken_key, width, height, orientation, make, model,
                  sidecar_candidate) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).bind([
                    .text(row.id), .blob(row.path), .integer(7), .integer(Int64(asset.stamp.inode)), .integer(asset.stamp.size),
                    .integer(asset.stamp.mtimeNs), .integer(row.sidecar), .text(row.group), .text(row.spelling),
                    .text(row.description), .text(row.source), .text(row.format), .text(row.taken), .integer(row.takenKey),
                    .integer(row.size?.0), .integer(row.size?.1), .integer(row.size?.2), .text(row.make), .text(row.model),
                    .integer(row.candidate),
                ]).run()
        }
        try db.execute("""
            INSERT INTO groups(key, name, count, latest_taken, latest_mtime_ns) VALUES
              ('Beach', 'Beach', 2, '2021-06-05T10:00:00', 1600000000000000001),
              ('hike', 'Hike', 2, NULL, 1600000000000000004),
              ('', 'Other', 2, NULL, 1600000000000000006);
            INSERT INTO group_spellings(group_key, spelling, count) VALUES
              ('Beach', 'Beach', 2), ('hike', 'Hike', 1), ('hike', 'HIKE', 1), ('', 'Other', 2);
            INSERT INTO changes(committed_at_ns, payload, size) VALUES
              (1, '\(Self.payload(inserted: "aaaaaaaaaaaaaaaa"))', 99), (2, '\(Self.payload(inserted: "bbbbbbbbbbbbbbbb"))', 99),
              (3, '\(Self.payload(removed: "ffffffffffffffff"))', 99);
            INSERT INTO apps(uid, id, record) VALUES (1000, 'app:org.example.Viewer', x'7b7d');
            DELETE FROM settings;
            """)
        return path
    }

    private static func payload(inserted: String? = nil, removed: String? = nil) -> String {
        let change = CommittedChange(token: 0, inserted: inserted.map { [$0] } ?? [], removed: removed.map { [$0] } ?? [])
        return (try? String(decoding: JSONEncoder().encode(change), as: UTF8.self)) ?? ""
    }

    @Test func everyAssetGroupTokenAndSearchResultSurvives() async throws {
        let dir = try TemporaryDirectory()
        let path = try oldIndex(in: dir)
        let before = try #require(DurableFile.size(of: path))
        let store = try Store(path: path)
        let names = ["Beach": "Beach", "hike": "Hike", "": "Other"]
        let expected = Self.rows.map { row in
            var asset = row.asset
            asset.groupName = names[row.group] ?? ""
            return asset
        }
        let all = try await store.read { try $0.allAssets() }
        #expect(all.count == expected.count)
        for asset in expected {
            #expect(all.first { $0.id == asset.id } == asset, "\(asset.id)")
        }
        await #expect(try store.read { try $0.assets(ids: expected.map(\.id)) }.count == expected.count)
        await #expect(try store.read { try $0.assets(paths: expected.map(\.path)) }.map(\.id).sorted() == expected.map(\.id).sorted())
        let groups = try await store.read { try $0.groups() }
        #expect(groups.map(\.name) == ["Beach", "Hike", "Other"])
        #expect(groups.map(\.count) == [2, 2, 2])
        #expect(groups.map(\.latestTaken) == ["2021-06-05T10:00:00", nil, nil])
        #expect(groups.map(\.latestMtimeNs) == [1_600_000_000_000_000_001, 1_600_000_000_000_000_004, 1_600_000_000_000_000_006])
        await #expect(try store.read { try $0.currentToken() } == 3)
        await #expect(try store.read { try $0.changes(after: 0) }.map(\.token) == [1, 2, 3])
        await #expect(try store.read { try $0.changes(after: 0) }.last?.removed == ["ffffffffffffffff"])
        await #expect(try store.read { try $0.apps() }.map(\.id) == ["app:org.example.Viewer"])
        // Path order is byte order, a folder's files among its subfolders as their names fall.
        let byPath = try await store.read { try $0.assets(groupKey: nil, sort: .path, after: nil, limit: 100) }.map(\.path)
        #expect(byPath == expected.map(\.path).sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) })
        await #expect(try store.searchPaths("beach") == ["/lib/a.jpg", "/lib/sub/b.jpg"])
        await #expect(try store.searchPaths("x-t3 é") == ["/lib/zz/é.jpg"])
        await #expect(try store.searchPaths("hasselblad").count == 1)
        await #expect(try store.searchPaths("olympus digital c.jpg") == ["/lib/sub/deeper/c.jpg"])
        await #expect(try store.read { try $0.indexedFiles(under: PathBytes("/lib")) }.count == 5)
        // The file gave the freed pages back.
        #expect(try #require(DurableFile.size(of: path)) <= before)
        // And the writer carries on: a new photo, a move, a removal.
        var batch = WriteBatch()
        batch.inserts = [photo("/lib/sub/new.jpg", 9, "Beach")]
        batch.updates = [WriteBatch.Update(id: "legacy-id-0001", path: PathBytes("/lib/moved.jpg"),
                                           stamp: expected[4].stamp, content: nil)]
        batch.removals = ["aaaaaaaaaaaaaaaa"]
        let batchChange = try await store.write { [batch] in try $0.apply(batch) }
        let change = try #require(batchChange)
        #expect(change.token == 4)
        await #expect(try store.searchPaths("hasselblad") == ["/lib/moved.jpg"])
        await #expect(try store.searchPaths("beach") == ["/lib/sub/new.jpg", "/lib/sub/b.jpg"])
    }
}
