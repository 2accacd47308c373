import FileSystem
import Foundation
import PhotoTestSupport
import SQLite
import Testing
@testable import Store

/// Which of its sidecar names an asset's description came from is kept with the asset, and an
/// index from before it was kept reads the sidecar-described assets again to learn it.
@Suite struct SidecarCandidateTests {
    @Test func theCandidateIsKeptAndFollowsAMove() async throws {
        let dir = try TemporaryDirectory()
        let store = try await openStore(dir)
        defer { withExtendedLifetime(dir) {} }
        var described = content("Lake")
        described.descriptionSource = "sidecar"
        described.sidecarCandidate = 2
        var batch = WriteBatch()
        batch.inserts = [WriteBatch.Insert(path: PathBytes("/lib/IMG_1.jpg"), stamp: stamp(1), content: described),
                         insert("/lib/b.jpg", 2, "Beach")]
        let batchChange = try await store.write { [batch] in try $0.apply(batch) }
        let change = try #require(batchChange)
        let stored = try await store.read { try $0.assets(ids: change.inserted) }
        #expect(stored.map(\.content.sidecarCandidate) == [2, nil])

        // Moved with its sidecar (the same signature): the content, candidate included, stays.
        var move = WriteBatch()
        move.updates = [WriteBatch.Update(id: change.inserted[0], path: PathBytes("/lib/trip/IMG_1.jpg"), stamp: stamp(1),
                                          content: nil)]
        _ = try await store.write { [move] in try $0.apply(move) }
        #expect(try await store.read { try $0.assets(ids: [change.inserted[0]]) }.first?.content.sidecarCandidate == 2)
    }

    @Test func anIndexFromBeforeReadsItsSidecarDescribedAssetsAgain() async throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("index.sqlite")
        defer { withExtendedLifetime(dir) {} }
        do {
            let old = try SQLiteConnection(path: path, create: true)
            for sql in Schema.migrations.prefix(6) { try old.execute(sql) }
            try old.execute("PRAGMA user_version = 6")
            for (id, source) in [("a", "sidecar"), ("b", "exif")] {
                try old.statement("""
                    INSERT INTO assets (id, path, device, inode, size, mtime_ns, sidecar, group_key, group_spelling,
                      description, description_source, format, taken_key)
                    VALUES (?, ?, 1, ?, 10, 10, 77, 'x', 'x', 'x', ?, 'jpeg', 10)
                    """).bind([.text(id), .blob(Array("/lib/\(id).jpg".utf8)), .integer(Int64(id == "a" ? 1 : 2)),
                               .text(source)]).run()
            }
        }
        let store = try Store(path: path)
        let files = try await store.read { try $0.indexedFiles(under: PathBytes("/lib")) }.sorted { $0.id < $1.id }
        #expect(files.map(\.stamp.sidecar) == [-1, 77], "only the sidecar-described asset is read again")
        #expect(try await store.read { try $0.assets(ids: ["a"]) }.first?.content.sidecarCandidate == nil)
    }
}
