import Foundation
import PhotoTestSupport
import SQLite
import Testing
@testable import Store

/// A bulk load writes many new photos without the query indexes, answers every query right
/// meanwhile, and builds the indexes once at its end, or at the next open after a crash.
@Suite struct BulkLoadTests {
    private static let queryIndexes = Set(CompactLayout.secondaryIndexes.map(\.name))

    private func indexes(_ store: Store) throws -> Set<String> {
        try store.database.read { db in
            let statement = try db.statement("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'assets'")
            var names: Set<String> = []
            while try statement.step() { names.insert(statement.text(0) ?? "") }
            return names
        }
    }

    /// 60 photos in three groups and two folders, each taken at its own second (two stores
    /// draw different ids, so a tie on the time would order them differently).
    private func photos(from first: Int) -> [WriteBatch.Insert] {
        (first..<(first + 60)).map { n in
            var insert = photo("/lib/\(n % 2 == 0 ? "even" : "odd")/p\(n).jpg", Int64(n), ["Lake", "Sea", "Hill"][n % 3])
            insert.content.takenNs = Int64(n * 7 % 120) * 1_000_000_000
            insert.content.taken = AssetEncoding.canonicalTaken(Int64(n * 7 % 120) * 1_000_000_000)
            return insert
        }
    }

    /// What the queries answer, in a form two stores can be compared by.
    private func answers(_ store: Store) async throws -> [String] {
        var answers: [String] = []
        for text in ["lake", "p1", "sea p2", "l"] {
            answers.append(text + ": " + (try await store.searchPaths(text)).joined(separator: ","))
        }
        for sort in StoreSort.allCases {
            for group in [nil, "Sea"] {
                let page = try await store.assets(StoreListing(groupKey: group, sort: sort, descending: sort == .taken),
                                                  after: nil, limit: 25)
                answers.append("\(sort) \(group ?? "all"): " + page.map { String(decoding: $0.path, as: UTF8.self) }
                    .joined(separator: ","))
            }
        }
        answers.append("groups: " + (try await store.groups()).map { "\($0.name) \($0.count) \($0.latestTaken ?? "-")" }
            .joined(separator: ","))
        return answers
    }

    /// The same photos written without a bulk load, for comparison.
    private func reference() async throws -> [String] {
        let dir = try TemporaryDirectory()
        let store = try await openStore(dir)
        for first in [0, 60] {
            var batch = WriteBatch()
            batch.inserts = photos(from: first)
            _ = try await store.apply(batch)
        }
        return try await answers(store)
    }

    @Test func aBulkLoadAnswersLikeRowByRowAndBuildsItsIndexesAtTheEnd() async throws {
        let dir = try TemporaryDirectory()
        let store = try await openStore(dir)
        #expect(try await store.beginBulkLoad(adding: 5000))
        #expect(try indexes(store).isDisjoint(with: Self.queryIndexes))
        for first in [0, 60] {
            var batch = WriteBatch()
            batch.inserts = photos(from: first)
            _ = try await store.apply(batch)
        }
        let expected = try await reference()
        await #expect(try answers(store) == expected, "right answers without the indexes")
        try await store.endBulkLoad()
        #expect(try indexes(store).isSuperset(of: Self.queryIndexes))
        await #expect(try store.setting(BulkLoad.setting) == nil)
        await #expect(try answers(store) == expected)
        let indexed = try store.database.read { db in try db.integer("SELECT doc FROM search_terms WHERE term = 'jpg'") }
        #expect(indexed == 120, "every photo's text is in the search index")
    }

    @Test func aLoadACrashInterruptedIsFinishedAtTheNextOpen() async throws {
        let dir = try TemporaryDirectory()
        do {
            let store = try await openStore(dir)
            #expect(try await store.beginBulkLoad(adding: 5000))
            var batch = WriteBatch()
            batch.inserts = photos(from: 0)
            _ = try await store.apply(batch)
            // Gone without endBulkLoad, as in a crash: what was committed is all that is left.
            await store.close()
        }
        let reopened = try await openStore(dir)
        #expect(try indexes(reopened).isSuperset(of: Self.queryIndexes))
        await #expect(try reopened.setting(BulkLoad.setting) == nil)
        var batch = WriteBatch()
        batch.inserts = photos(from: 60)
        _ = try await reopened.apply(batch)
        await #expect(try answers(reopened) == reference())
    }

    @Test func onlyANewIndexOrOneAtLeastDoubledLoadsInBulk() async throws {
        let dir = try TemporaryDirectory()
        let store = try await openStore(dir)
        #expect(try await !store.beginBulkLoad(adding: BulkLoad.minimumFiles - 1), "too few to be worth it")
        var batch = WriteBatch()
        batch.inserts = (0..<1500).map { photo("/lib/\($0).jpg", Int64($0), "Lake") }
        _ = try await store.apply(batch)
        #expect(try await !store.beginBulkLoad(adding: 1499), "fewer than are indexed")
        #expect(try indexes(store).isSuperset(of: Self.queryIndexes))
        #expect(try await store.beginBulkLoad(adding: 1500))
        #expect(try await store.beginBulkLoad(adding: 1), "one is under way")
        try await store.endBulkLoad()
        try await store.endBulkLoad()
        #expect(try indexes(store).isSuperset(of: Self.queryIndexes))
    }

    @Test func theSearchTextOfManyChunksIsReadAheadAndIndexedWhole() async throws {
        let dir = try TemporaryDirectory()
        let store = try await openStore(dir)
        let count = SearchTextFeed.chunkSize * 5 / 2
        #expect(try await store.beginBulkLoad(adding: count))
        var batch = WriteBatch()
        batch.inserts = (0..<count).map { photo("/lib/f\($0 % 7)/p\($0).jpg", Int64($0), $0 == count - 1 ? "Last one" : "Lake") }
        _ = try await store.apply(batch)
        try await store.endBulkLoad()
        let (indexed, temporaryStore) = try store.database.write { db in
            (try db.integer("SELECT doc FROM search_terms WHERE term = 'jpg'"), try db.integer("PRAGMA temp_store"))
        }
        #expect(indexed == Int64(count), "every chunk's text is in the search index, once")
        #expect(temporaryStore == 2, "the writer's temporary store is back in memory after the load")
        await #expect(try store.searchPaths("last one") == ["/lib/f\((count - 1) % 7)/p\(count - 1).jpg"])
        await #expect(try store.searchPaths("p0.jpg") == ["/lib/f0/p0.jpg"])
    }
}
