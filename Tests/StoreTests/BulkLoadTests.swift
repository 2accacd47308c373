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

    /// Every asset's id, in row order.
    private func ids(_ store: Store) throws -> [String] {
        try store.database.read { db in
            let statement = try db.statement("SELECT id FROM assets ORDER BY number")
            defer { statement.reset() }
            var ids: [String] = []
            while try statement.step() { ids.append(AssetEncoding.idText(statement, 0)) }
            return ids
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

    /// Begins a bulk load of 5,000 photos into `store` and writes the first 60 of them.
    private func beginLoadingTheFirst60(into store: Store) async throws {
        #expect(try await store.write { try $0.beginBulkLoad(adding: 5000) })
        var batch = WriteBatch()
        batch.inserts = photos(from: 0)
        _ = try await store.write { [batch] in try $0.apply(batch) }
    }

    /// What the queries answer, in a form two stores can be compared by.
    private func answers(_ store: Store) async throws -> [String] {
        var answers: [String] = []
        for text in ["lake", "p1", "sea p2", "l"] {
            answers.append(text + ": " + (try await store.searchPaths(text)).joined(separator: ","))
        }
        for sort in StoreSort.allCases {
            for group in [nil, "Sea"] {
                let page = try await store.read { try $0.assets(StoreListing(groupKey: group, sort: sort, descending: sort == .taken),
                                                  after: nil, limit: 25) }
                answers.append("\(sort) \(group ?? "all"): " + page.map { $0.path.description }
                    .joined(separator: ","))
            }
        }
        answers.append("groups: " + (try await store.read { try $0.groups() }).map { "\($0.name) \($0.count) \($0.latestTaken ?? "-")" }
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
            _ = try await store.write { [batch] in try $0.apply(batch) }
        }
        return try await answers(store)
    }

    @Test func aBulkLoadAnswersLikeRowByRowAndBuildsItsIndexesAtTheEnd() async throws {
        let dir = try TemporaryDirectory()
        let store = try await openStore(dir)
        #expect(try await store.write { try $0.beginBulkLoad(adding: 5000) })
        #expect(try indexes(store).isDisjoint(with: Self.queryIndexes))
        #expect(try !indexes(store).contains(CompactLayout.idIndexName), "a first index goes without the id index")
        for first in [0, 60] {
            var batch = WriteBatch()
            batch.inserts = photos(from: first)
            _ = try await store.write { [batch] in try $0.apply(batch) }
        }
        let expected = try await reference()
        await #expect(try answers(store) == expected, "right answers without the indexes")
        try await store.endBulkLoad()
        #expect(try indexes(store).isSuperset(of: Self.queryIndexes.union([CompactLayout.idIndexName])))
        await #expect(try store.read { try $0.setting(BulkLoad.setting) } == nil)
        await #expect(try answers(store) == expected)
        let unique = try store.database.read { db in
            try db.integer("SELECT \"unique\" FROM pragma_index_list('assets') WHERE name = '\(CompactLayout.idIndexName)'")
        }
        #expect(unique == 1)
        let indexed = try store.database.read { db in try db.integer("SELECT doc FROM search_terms WHERE term = 'jpg'") }
        #expect(indexed == 120, "every photo's text is in the search index")
    }

    @Test func aLoadACrashInterruptedIsFinishedAtTheNextOpen() async throws {
        let dir = try TemporaryDirectory()
        do {
            let store = try await openStore(dir)
            try await beginLoadingTheFirst60(into: store)
            // Gone without endBulkLoad, as in a crash: what was committed is all that is left.
            await store.close()
        }
        try await expectFinishedAtReopening(dir)
    }

    /// The index in `dir`, opened again, has ended the load it was left in, and answers as one
    /// written row by row once the other 60 photos are in.
    private func expectFinishedAtReopening(_ dir: TemporaryDirectory) async throws {
        let reopened = try await openStore(dir)
        #expect(try indexes(reopened).isSuperset(of: Self.queryIndexes.union([CompactLayout.idIndexName])))
        await #expect(try reopened.read { try $0.setting(BulkLoad.setting) } == nil)
        var batch = WriteBatch()
        batch.inserts = photos(from: 60)
        _ = try await reopened.write { [batch] in try $0.apply(batch) }
        await #expect(try answers(reopened) == reference())
    }

    /// A first index commits its indexes, then its copied search index: a copy that fails leaves
    /// the mark, and the next open fills the search text.
    @Test func aFirstIndexWhoseSearchCopyFailedIsFinishedAtTheNextOpen() async throws {
        let dir = try TemporaryDirectory()
        do {
            let store = try await openStore(dir)
            #expect(try await store.write { try $0.beginFirstIndex() })
            var batch = WriteBatch()
            batch.inserts = photos(from: 0)
            _ = try await store.write { [batch] in try $0.apply(batch) }
            let helpers = BulkLoad.Helpers(
                readAhead: { store.searchTextFeed(above: $0) }, buildSearch: { store.searchIndexBuild(above: $0) },
                connect: { throw SQLiteError(code: 1, message: "no second connection") })
            _ = try store.database.write { db in
                #expect(throws: SQLiteError.self) { try BulkLoad.finish(db, helpers: helpers) }
            }
            #expect(try indexes(store).isSuperset(of: Self.queryIndexes.union([CompactLayout.idIndexName])))
            await #expect(try store.read { try $0.setting(BulkLoad.setting) } != nil, "the load is not over")
            await store.close()
        }
        try await expectFinishedAtReopening(dir)
    }

    @Test func onlyANewIndexOrOneAtLeastDoubledLoadsInBulk() async throws {
        let dir = try TemporaryDirectory()
        let store = try await openStore(dir)
        #expect(try await !store.write { try $0.beginBulkLoad(adding: BulkLoad.minimumFiles - 1) }, "too few to be worth it")
        var batch = WriteBatch()
        batch.inserts = (0..<1500).map { photo("/lib/\($0).jpg", Int64($0), "Lake") }
        _ = try await store.write { [batch] in try $0.apply(batch) }
        #expect(try await !store.write { try $0.beginBulkLoad(adding: 1499) }, "fewer than are indexed")
        #expect(try indexes(store).isSuperset(of: Self.queryIndexes))
        #expect(try await store.write { try $0.beginBulkLoad(adding: 1500) })
        #expect(try indexes(store).contains(CompactLayout.idIndexName), "rows are found by id while others exist")
        #expect(try indexes(store).contains(CompactLayout.identityIndexName), "new files are looked up by inode")
        let moved = try await store.read { try $0.indexedFiles(sharingInodeWith: [stamp(7)]) }
            .map { $0.path.description }
        #expect(moved == ["/lib/7.jpg"])
        #expect(try await store.write { try $0.beginBulkLoad(adding: 1) }, "one is under way")
        try await store.endBulkLoad()
        try await store.endBulkLoad()
        #expect(try indexes(store).isSuperset(of: Self.queryIndexes))
    }

    /// A first index begins its load before its first file, whatever their number; an index
    /// holding a photo does not begin one that way.
    @Test func aFirstIndexLoadsInBulkFromItsFirstFile() async throws {
        let dir = try TemporaryDirectory()
        let store = try await openStore(dir)
        #expect(try await store.write { try $0.beginFirstIndex() })
        #expect(try !indexes(store).contains(CompactLayout.idIndexName))
        var batch = WriteBatch()
        batch.inserts = Array(photos(from: 0).prefix(3))
        _ = try await store.write { [batch] in try $0.apply(batch) }
        #expect(try await store.write { try $0.beginFirstIndex() }, "one is under way")
        try await store.endBulkLoad()
        #expect(try indexes(store).isSuperset(of: Self.queryIndexes.union([CompactLayout.idIndexName])))
        await #expect(try store.searchPaths("p1") == ["/lib/odd/p1.jpg"])
        #expect(try await !store.write { try $0.beginFirstIndex() }, "the index holds photos now")
        #expect(try indexes(store).isSuperset(of: Self.queryIndexes.union([CompactLayout.idIndexName])))
    }

    @Test func theSearchTextOfManyChunksIsReadAheadAndIndexedWhole() async throws {
        let dir = try TemporaryDirectory()
        let store = try await openStore(dir)
        let count = SearchTextFeed.chunkSize * 5 / 2
        #expect(try await store.write { try $0.beginBulkLoad(adding: count) })
        var batch = WriteBatch()
        batch.inserts = (0..<count).map { photo("/lib/f\($0 % 7)/p\($0).jpg", Int64($0), $0 == count - 1 ? "Last one" : "Lake") }
        _ = try await store.write { [batch] in try $0.apply(batch) }
        try await store.endBulkLoad()
        let (indexed, temporaryStore) = try store.database.write { db in
            (try db.integer("SELECT doc FROM search_terms WHERE term = 'jpg'"), try db.integer("PRAGMA temp_store"))
        }
        #expect(indexed == Int64(count), "every chunk's text is in the search index, once")
        #expect(temporaryStore == 2, "the writer's temporary store is back in memory after the load")
        await #expect(try store.searchPaths("last one") == ["/lib/f\((count - 1) % 7)/p\(count - 1).jpg"])
        await #expect(try store.searchPaths("p0.jpg") == ["/lib/f0/p0.jpg"])
    }

    /// Ids are 80 random bits; were two rows of a first index ever to share one, the id index
    /// could not be made. The later row draws a new id and the load ends as usual.
    @Test func aRepeatedIdAtTheEndOfAFirstIndexIsDrawnAnew() async throws {
        let dir = try TemporaryDirectory()
        let store = try await openStore(dir)
        try await beginLoadingTheFirst60(into: store)
        let before = try ids(store)
        try store.database.write { db in
            try db.execute("UPDATE assets SET id = (SELECT id FROM assets WHERE number = 1) WHERE number IN (2, 3)")
        }
        try await store.endBulkLoad()
        let after = try ids(store)
        #expect(after.count == 60 && Set(after).count == 60, "every row is kept, each with an id of its own")
        #expect(Set(after).intersection(before).count == 58, "only the two repeats were drawn anew")
        #expect(try indexes(store).contains(CompactLayout.idIndexName))
    }

    /// The bulk fill gathers the search text in memory and merges once; FTS5's incremental
    /// merging, which the live writer's small transactions need, is back on after it.
    @Test func theSearchIndexMergesAsItWritesAgainAfterABulkFill() async throws {
        let dir = try TemporaryDirectory()
        let store = try await openStore(dir)
        try await beginLoadingTheFirst60(into: store)
        try await store.endBulkLoad()
        let (automerge, segments) = try store.database.read { db in
            (try db.integer("SELECT v FROM search_text_config WHERE k = 'automerge'"),
             try db.integer("SELECT count(DISTINCT segid) FROM search_text_idx"))
        }
        #expect(automerge == Int64(SearchIndex.defaultAutomerge))
        #expect(segments == 1, "one segment after the fill")
    }
}
