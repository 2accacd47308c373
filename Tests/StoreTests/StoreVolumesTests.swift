import FileSystem
import Foundation
import PhotoTestSupport
import SQLite
import Testing
@testable import Store

/// Migrations 10 and 11: the file system each root's photos were indexed on, and its UUID.
@Suite struct StoreVolumesTests {
    static let card = StoredVolume(
        folder: PathBytes("/media/card"), root: "/media/card", device: 2065, mountID: 95, major: 8, minor: 17,
        fsType: "ext4", source: "/dev/sdb1", mountPoint: PathBytes("/media/card"))

    @Test func aVolumeIsKeptReplacedAndDeleted() async throws {
        let dir = try TemporaryDirectory()
        let store = try Store(path: dir.file("index.sqlite"))
        await #expect(try store.read { try $0.volumes() }.isEmpty)
        try await store.write { try $0.saveVolume(Self.card) }
        var remounted = Self.card
        remounted.mountID = 120
        remounted.device = UInt64.max - 1  // st_dev is unsigned; SQLite's integers are not
        try await store.write { [remounted] in try $0.saveVolume(remounted) }
        let reopened = try Store(path: dir.file("index.sqlite"))
        await #expect(try reopened.read { try $0.volumes() } == [remounted])
        try await reopened.write { try $0.deleteVolume(folder: Self.card.folder) }
        await #expect(try reopened.read { try $0.volumes() }.isEmpty)
    }

    @Test func anIndexFromBeforeMigrationTenGetsTheTableAndKeepsItsAssets() async throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("index.sqlite")
        do {
            let store = try Store(path: path)
            var batch = WriteBatch()
            batch.inserts.append(.init(path: PathBytes("/media/card/a.jpg"),
                                       stamp: FileStamp(device: 2065, inode: 12, size: 3, mtimeNs: 4),
                                       content: AssetContent(groupKey: "a", groupSpelling: "A", format: "jpeg")))
            _ = try await store.write { [batch] in try $0.apply(batch) }
            await store.close()
        }
        do {
            // As the code before migration 10 left it: compact layout, no volumes table.
            let old = try SQLiteConnection(path: path, create: false)
            try old.execute("DROP TABLE volumes")
            try old.execute("PRAGMA user_version = \(Schema.compactVersion)")
        }
        let store = try Store(path: path)
        await #expect(try store.read { try $0.totals() }.assets == 1)
        try await store.write { try $0.saveVolume(Self.card) }
        await #expect(try store.read { try $0.volumes() } == [Self.card])
        let db = try SQLiteConnection(path: path, create: false)
        #expect(try db.integer("PRAGMA user_version") == Int64(Schema.version))
        #expect(Schema.version == 12)
    }

    @Test func aVolumeKeepsItsUUIDAndFileSystemIDAndARecordFromVersionTenGetsEmptyOnes() async throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("index.sqlite")
        var card = Self.card
        card.uuid = "4f2c6e1a-0d5b-4c7e-9a53-2b1f0c8d7e61"
        card.fsID = UInt64.max - 7
        do {
            let store = try Store(path: path)
            try await store.write { [card] in try $0.saveVolume(card) }
            await #expect(try store.read { try $0.volumes() } == [card])
            await store.close()
        }
        do {
            // As migration 10 left it: the table without the two columns.
            let old = try SQLiteConnection(path: path, create: false)
            try old.execute("ALTER TABLE volumes DROP COLUMN uuid; ALTER TABLE volumes DROP COLUMN fs_id")
            try old.execute("PRAGMA user_version = 10")
        }
        let store = try Store(path: path)
        await #expect(try store.read { try $0.volumes() } == [Self.card], "kept, with nothing known of its UUID")
    }
}
