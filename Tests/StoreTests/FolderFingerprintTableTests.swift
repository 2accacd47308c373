import FileSystem
import Foundation
import PhotoTestSupport
import SQLite
import Testing
@testable import Store

/// Migration 12: folders' fingerprints, kept true by triggers on the assets' paths and stamps.
@Suite struct FolderFingerprintTableTests {
    private static func fingerprint(_ files: Int64) -> FolderFingerprint {
        var fingerprint = FolderFingerprint()
        for index in 0..<files {
            fingerprint.add(name: Array("\(index).jpg".utf8),
                            info: FileInfo(kind: .regular, device: 1, inode: UInt64(index + 1), size: 10, mtimeNs: 5),
                            seed: 0)
        }
        return fingerprint
    }

    /// A new index holding the photo /lib/a/1.jpg, its folder recorded (with a fingerprint of
    /// one file), with the temporary folder it is in.
    private static func onePhotoRecorded() async throws -> (TemporaryDirectory, Store) {
        let dir = try TemporaryDirectory()
        let store = try Store(path: dir.file("index.sqlite"))
        _ = try await store.write { try $0.apply(Self.insert("/lib/a/1.jpg")) }
        try await store.write { try Self.recordOne($0) }
        return (dir, store)
    }

    /// Records /lib/a/ with a fingerprint of one file, completing /lib.
    private static func recordOne(_ database: StoreDatabase) throws {
        try database.recordFingerprints(under: PathBytes("/lib"), [(PathBytes("/lib/a/"), fingerprint(1))], complete: true)
    }

    private static func insert(_ path: String, inode: UInt64 = 7) -> WriteBatch {
        var batch = WriteBatch()
        batch.inserts.append(.init(path: PathBytes(path), stamp: FileStamp(device: 1, inode: inode, size: 3, mtimeNs: 4),
                                   content: AssetContent(groupKey: "a", groupSpelling: "A", format: "jpeg")))
        return batch
    }

    @Test func recordedFingerprintsAreReadBackUnderTheirRootOnly() async throws {
        let dir = try TemporaryDirectory()
        let store = try Store(path: dir.file("index.sqlite"))
        let folders = [(PathBytes("/lib/a/"), Self.fingerprint(2)), (PathBytes("/lib/a/b/"), Self.fingerprint(1)),
                       (PathBytes("/lib2/"), Self.fingerprint(3))]
        try await store.write { try $0.recordFingerprints(under: PathBytes("/"), folders, complete: false) }
        let recorded = try await store.read { try $0.recordedFingerprints(under: PathBytes("/lib")) }
        #expect(!recorded.unknown)
        #expect(recorded.folders == [PathBytes("/lib/a/"): Self.fingerprint(2), PathBytes("/lib/a/b/"): Self.fingerprint(1)])
    }

    @Test func aCompleteRecordForgetsFoldersGoneAndMarksTheUnknownOnes() async throws {
        let dir = try TemporaryDirectory()
        let store = try Store(path: dir.file("index.sqlite"))
        let old = [(PathBytes("/lib/a/"), Self.fingerprint(2)), (PathBytes("/lib/gone/"), Self.fingerprint(1)),
                   (PathBytes("/lib/kept/"), Self.fingerprint(4)), (PathBytes("/other/"), Self.fingerprint(1))]
        try await store.write { try $0.recordFingerprints(under: PathBytes("/"), old, complete: false) }
        try await store.write {
            try $0.recordFingerprints(under: PathBytes("/lib"), [(PathBytes("/lib/a/"), Self.fingerprint(3))],
                                      unknown: [PathBytes("/lib/kept/")], complete: true)
        }
        let recorded = try await store.read { try $0.recordedFingerprints(under: PathBytes("/")) }
        #expect(recorded.folders == [PathBytes("/lib/a/"): Self.fingerprint(3), PathBytes("/other/"): Self.fingerprint(1)])
        #expect(recorded.unknown)
        let rows: [(PathBytes, Bool)] = try await store.read { try $0.fingerprintRowsForTesting() }
        #expect(Set(rows.map(\.0)) == [PathBytes("/lib/a/"), PathBytes("/lib/kept/"), PathBytes("/other/")])
    }

    /// Any write to a photo's path or stamp marks its stem's folders unknown: a recorded
    /// fingerprint never stands for rows it did not see.
    @Test func writingAPhotoMarksTheFoldersOfItsStemUnknown() async throws {
        let dir = try TemporaryDirectory()
        let store = try Store(path: dir.file("index.sqlite"))
        _ = try await store.write { try $0.apply(Self.insert("/lib/a/1.jpg", inode: 1)) }
        _ = try await store.write { try $0.apply(Self.insert("/lib/b/1.jpg", inode: 2)) }
        let folders = [(PathBytes("/lib/a/"), Self.fingerprint(1)), (PathBytes("/lib/b/"), Self.fingerprint(1))]
        func recordBoth() async throws {
            try await store.write { try $0.recordFingerprints(under: PathBytes("/lib"), folders, complete: true) }
            #expect(try await store.read { try $0.recordedFingerprints(under: PathBytes("/lib")) }.unknown == false)
        }
        func unknownFolders() async throws -> Set<PathBytes> {
            let all: [(PathBytes, Bool)] = try await store.read { try $0.fingerprintRowsForTesting() }
            return Set(all.filter { !$0.1 }.map(\.0))
        }
        try await recordBoth()
        _ = try await store.write { try $0.apply(Self.insert("/lib/a/2.jpg", inode: 3)) }
        #expect(try await unknownFolders() == [PathBytes("/lib/a/")])
        #expect(try await store.read { try $0.recordedFingerprints(under: PathBytes("/lib")) }.unknown)

        try await recordBoth()
        let id = try #require(try await store.read { try $0.indexedFiles(under: PathBytes("/lib/b")) }.first?.id)
        var removal = WriteBatch()
        removal.removals = [id]
        _ = try await store.write { [removal] in try $0.apply(removal) }
        // The stem went with its last photo; its folder stays marked until a reconcile records the root.
        #expect(try await unknownFolders() == [PathBytes("/lib/b/")])

        try await recordBoth()
        let moved = try #require(try await store.read { try $0.indexedFiles(under: PathBytes("/lib/a")) }.first)
        var move = WriteBatch()
        move.updates = [WriteBatch.Update(id: moved.id, path: PathBytes("/lib/c/9.jpg"), stamp: moved.stamp, content: nil)]
        _ = try await store.write { [move] in try $0.apply(move) }
        #expect(try await unknownFolders() == [PathBytes("/lib/a/"), PathBytes("/lib/c/")])
    }

    @Test func stemsUnderARootAndPagesThatLeaveSomeOut() async throws {
        let dir = try TemporaryDirectory()
        let store = try Store(path: dir.file("index.sqlite"))
        for (index, path) in ["/lib/a/1.jpg", "/lib/a/2.jpg", "/lib/b/3.jpg", "/lib/c/4.jpg"].enumerated() {
            _ = try await store.write { try $0.apply(Self.insert(path, inode: UInt64(index + 1))) }
        }
        let stems = try #require(try await store.read { try $0.stems(under: PathBytes("/lib")) })
        #expect(stems.map(\.path) == ["/lib/a/", "/lib/b/", "/lib/c/"].map(PathBytes.init))
        #expect(try await store.read { try $0.stems(under: PathBytes("/lib/a/deeper")) } == nil, "inside a stem")
        let skipping = stems.filter { $0.path != PathBytes("/lib/b/") }.map(\.id)
        let paged = try await store.read {
            try $0.indexedFiles(under: PathBytes("/lib"), after: nil, limit: 10, skippingStems: skipping)
        }
        #expect(paged.map(\.path) == [PathBytes("/lib/b/3.jpg")])
        let all = try await store.read { try $0.indexedFiles(under: PathBytes("/lib"), after: nil, limit: 10) }
        #expect(all.count == 4)
    }

    /// The stem's upper bound is made in SQL from its bytes: a folder name that is not UTF-8 (any
    /// byte but "/" and NUL may be in one) bounds the same, byte for byte.
    @Test func aStemThatIsNotUTF8MarksExactlyTheFoldersUnderIt() async throws {
        let dir = try TemporaryDirectory()
        let store = try Store(path: dir.file("index.sqlite"))
        let stem: [UInt8] = Array("/lib/".utf8) + [0xFF, 0xC3, 0x28] + [0x2F]
        let sibling: [UInt8] = Array("/lib/".utf8) + [0xFF, 0xC3, 0x29] + [0x2F]
        let inside = stem + Array("deeper/".utf8)
        let folders = [(PathBytes(stem), Self.fingerprint(1)), (PathBytes(inside), Self.fingerprint(1)),
                       (PathBytes(sibling), Self.fingerprint(1))]
        try await store.write { try $0.recordFingerprints(under: PathBytes("/lib"), folders, complete: false) }
        var batch = WriteBatch()
        batch.inserts.append(.init(path: PathBytes(stem + Array("x.jpg".utf8)), stamp: FileStamp(device: 1, inode: 9, size: 3, mtimeNs: 4),
                                   content: AssetContent(groupKey: "a", groupSpelling: "A", format: "jpeg")))
        _ = try await store.write { [batch] in try $0.apply(batch) }
        let rows: [(PathBytes, Bool)] = try await store.read { try $0.fingerprintRowsForTesting() }
        let unknown = Set(rows.filter { !$0.1 }.map(\.0))
        #expect(unknown == [PathBytes(stem), PathBytes(inside)])
    }

    /// photod never rewrites a stem's path, but a tool that does (as bench/scale_bench.py does to
    /// make a root renamed while photod was down) moves every row under it without touching one.
    @Test func aStemsPathRewrittenMarksItsFoldersAtBothPathsUnknown() async throws {
        let (dir, store) = try await Self.onePhotoRecorded()
        let db = try SQLiteConnection(path: dir.file("index.sqlite"), create: false)
        try db.execute("UPDATE folders SET path = CAST('/old/a/' AS BLOB)")
        let rows: [(PathBytes, Bool)] = try await store.read { try $0.fingerprintRowsForTesting() }
        #expect(Set(rows.map(\.0)) == [PathBytes("/lib/a/"), PathBytes("/old/a/")])
        #expect(rows.allSatisfy { !$0.1 })
        #expect(try await store.read { try $0.recordedFingerprints(under: PathBytes("/lib")) }.unknown)
    }

    @Test func aDescriptionWrittenLeavesTheFingerprintsAlone() async throws {
        let (dir, store) = try await Self.onePhotoRecorded()
        let db = try SQLiteConnection(path: dir.file("index.sqlite"), create: false)
        try db.execute("UPDATE assets SET description = 'Lake', group_id = group_id")
        #expect(try await store.read { try $0.recordedFingerprints(under: PathBytes("/lib")) }.unknown == false)
        try db.execute("UPDATE assets SET mtime_ns = mtime_ns + 1")
        #expect(try await store.read { try $0.recordedFingerprints(under: PathBytes("/lib")) }.unknown)
    }

    /// A bulk load writes without the triggers: it forgets every fingerprint when it begins and
    /// puts the triggers back at its end.
    @Test func aBulkLoadForgetsTheFingerprintsAndPutsTheTriggersBack() async throws {
        let dir = try TemporaryDirectory()
        let store = try Store(path: dir.file("index.sqlite"))
        try await store.write { try Self.recordOne($0) }
        #expect(try await store.write { try $0.beginFirstIndex() })
        #expect(try await store.read { try $0.recordedFingerprints(under: PathBytes("/lib")) }.folders.isEmpty)
        let db = try SQLiteConnection(path: dir.file("index.sqlite"), create: false)
        #expect(try db.integer("SELECT count(*) FROM sqlite_master WHERE type = 'trigger'") == 0)
        _ = try await store.write { try $0.apply(Self.insert("/lib/a/1.jpg")) }
        try await store.endBulkLoad()
        #expect(try db.integer("SELECT count(*) FROM sqlite_master WHERE type = 'trigger'") == 4)
        try await store.write { try Self.recordOne($0) }
        _ = try await store.write { try $0.apply(Self.insert("/lib/a/2.jpg", inode: 8)) }
        #expect(try await store.read { try $0.recordedFingerprints(under: PathBytes("/lib")) }.unknown)
    }
}

extension StoreDatabase {
    /// Every row of the fingerprint table: its folder, and whether a fingerprint is recorded.
    func fingerprintRowsForTesting() throws -> [(PathBytes, Bool)] {
        try read { db in
            let statement = try db.statement("SELECT path, fingerprint IS NOT NULL FROM folder_fingerprints")
            var rows: [(PathBytes, Bool)] = []
            while try statement.step() { rows.append((PathBytes(statement.blob(0)), statement.int64(1) != 0)) }
            return rows
        }
    }
}
