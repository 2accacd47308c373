import Dispatch
import FileSystem
import Foundation
import PhotoTestSupport
import SQLite
import Testing
@testable import Store

/// A search index built in a scratch database and copied in is the same index the writer would
/// have filled itself, FTS5 reads and writes it as its own afterwards, and a build that fails
/// leaves the writer to fill the index.
@Suite struct SearchIndexBuildTests {
    /// Rows of search text, as `SearchIndex.rows` gives them: enough for several FTS5 leaves.
    private static let rows: [SearchIndex.Row] = (1...3000).map { n in
        SearchIndex.Row(rowid: Int64(n), fields: SearchText.fields(
            description: ["Café Crème", "Beach Trip", "Zürich 2019"][n % 3], path: PathBytes("/lib/IMG_\(n).jpg"),
            make: n % 2 == 0 ? "Canon" : nil, model: "Model \(n % 7)"))
    }

    private static func read(after: Int64, limit: Int) -> [SearchIndex.Row] {
        Array(rows.filter { $0.rowid > after }.prefix(limit))
    }

    private static func emptySearchTable() throws -> SQLiteConnection {
        let db = try SQLiteConnection(path: "", create: true)
        try db.execute(SearchIndex.tables)
        return db
    }

    /// Every term with the rows it is in, read through FTS5 itself (the fts5vocab table).
    private static func terms(_ db: SQLiteConnection) throws -> [String: Int64] {
        let statement = try db.statement("SELECT term, doc FROM search_terms")
        defer { statement.reset() }
        var terms: [String: Int64] = [:]
        while try statement.step() { terms[statement.text(0) ?? ""] = statement.int64(1) }
        return terms
    }

    private static func startBuild(depth: Int = 2) -> SearchIndexBuild.Feed {
        let feed = SearchIndexBuild.Feed(depth: depth)
        DispatchQueue.global().async {
            SearchIndexBuild.build(into: feed, after: 0) { after, limit in read(after: after, limit: limit) }
        }
        return feed
    }

    @Test func aCopiedBuildIsTheIndexTheWriterWouldHaveFilled() throws {
        let filled = try Self.emptySearchTable()
        var after: Int64 = 0
        try filled.transaction {
            try SearchIndex.fill(filled) {
                let chunk = Self.read(after: after, limit: 500)
                after = chunk.last?.rowid ?? after
                return chunk
            }
        }
        let copied = try Self.emptySearchTable()
        let feed = Self.startBuild()
        let didCopy = try copied.transaction { try SearchIndexBuild.copy(from: feed, into: copied) }
        feed.stop()
        #expect(didCopy)
        let expected = try Self.terms(filled)
        #expect(expected.count > 100)
        #expect(try Self.terms(copied) == expected)
        try copied.execute("INSERT INTO search_text(search_text) VALUES ('integrity-check')")
    }

    /// FTS5 goes on from the copied structure: later inserts and deletes land beside the copied
    /// segments, not over them, on a connection that had read the empty table before another
    /// connection committed the copy (as the store's writer and the copy's connection do).
    @Test func theCopiedIndexTakesLaterWritesAsItsOwn() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("index.sqlite")
        let writer = try SQLiteConnection(path: path, create: true)
        try writer.execute("PRAGMA journal_mode = WAL")
        try writer.execute(SearchIndex.tables)
        // A query first, so FTS5 has read (and may keep) the empty table's structure.
        #expect(try Self.terms(writer).isEmpty)
        do {
            let copier = try SQLiteConnection(path: path, create: false)
            let feed = Self.startBuild()
            _ = try copier.transaction { try SearchIndexBuild.copy(from: feed, into: copier) }
            feed.stop()
        }
        let gone = Self.rows[0]
        try writer.transaction {
            try writer.statement("INSERT INTO search_text(rowid, description, name, make, model) VALUES (?, ?, ?, ?, ?)")
                .bind([.integer(9999)] + SearchText.fields(description: "Harbour", path: PathBytes("/lib/late.jpg"),
                                                           make: nil, model: nil).map { .text($0) }).run()
            try writer.statement("""
                INSERT INTO search_text(search_text, rowid, description, name, make, model) VALUES ('delete', ?, ?, ?, ?, ?)
                """).bind([.integer(gone.rowid)] + gone.fields.map { .text($0) }).run()
        }
        let terms = try Self.terms(writer)
        #expect(terms["har"] == 1, "the later photo is found")
        #expect(terms["img"] == Int64(Self.rows.count - 1), "every copied photo but the deleted one is still found")
        try writer.execute("INSERT INTO search_text(search_text) VALUES ('integrity-check')")
    }

    @Test func aBuildThatFailsLeavesTheCopyToTheWriter() throws {
        struct NoScratchRoom: Error {}
        let db = try Self.emptySearchTable()
        let feed = SearchIndexBuild.Feed()
        feed.fail(NoScratchRoom())
        #expect(try !SearchIndexBuild.copy(from: feed, into: db))
        #expect(try Self.terms(db).isEmpty, "nothing was copied")
    }

    /// Only an empty search table takes a copy: one holding text is filled by the writer.
    @Test func aSearchTableHoldingTextIsNotReplaced() throws {
        let db = try Self.emptySearchTable()
        var given = false
        try db.transaction {
            try SearchIndex.fill(db) {
                defer { given = true }
                return given ? [] : [Self.rows[1]]
            }
        }
        let before = try Self.terms(db)
        let feed = Self.startBuild()
        #expect(try !SearchIndexBuild.copy(from: feed, into: db))
        feed.stop()
        #expect(try Self.terms(db) == before)
    }

    /// The store's own path: a first index ends with the copy, then takes live writes.
    @Test func aFirstIndexCopiesItsBuildAndSearchesAfterLiveWrites() async throws {
        let dir = try TemporaryDirectory()
        let store = try await openStore(dir)
        #expect(try await store.write { try $0.beginFirstIndex() })
        var batch = WriteBatch()
        batch.inserts = (0..<1500).map { photo("/lib/f\($0 % 5)/p\($0).jpg", Int64($0), $0 % 2 == 0 ? "Lake" : "Hill") }
        _ = try await store.write { [batch] in try $0.apply(batch) }
        try await store.endBulkLoad()
        await #expect(try store.searchPaths("p1499") == ["/lib/f4/p1499.jpg"])
        var live = WriteBatch()
        live.inserts = [photo("/lib/new/harbour.jpg", 5000, "Harbour")]
        _ = try await store.write { [live] in try $0.apply(live) }
        await #expect(try store.searchPaths("harbour") == ["/lib/new/harbour.jpg"])
        await #expect(try store.searchPaths("lake", limit: 2000).count == 750)
        try store.database.write { db in try db.execute("INSERT INTO search_text(search_text) VALUES ('integrity-check')") }
    }
}
