import FileSystem
import Foundation
import PhotoTestSupport
import Testing
@testable import Store

/// A photo for the search tests: what it says, where it is, which camera, when.
func photo(_ path: String, _ n: Int64, _ description: String?, make: String? = nil, model: String? = nil,
           group: String? = nil) -> WriteBatch.Insert {
    let group = group ?? description ?? "Other"
    return WriteBatch.Insert(path: PathBytes(path), stamp: stamp(n), content: AssetContent(
        groupKey: group, groupSpelling: group, description: description, descriptionSource: "exif", format: "jpeg",
        make: make, model: model))
}

extension Store {
    /// The paths the search for `text` finds, newest first, one page.
    func searchPaths(_ text: String, limit: Int = 100, selection: StoreSelection? = nil) async throws -> [String] {
        let query = try #require(SearchQuery(text))
        return try await searchPage(query, groupKey: nil, after: nil, limit: limit, selection: selection).assets
            .map { $0.path.description }
    }
}

/// Search over description, file name, make and model: case and accents ignored, every word a
/// substring, FTS5 syntax in the input plain text, and the index right after every kind of write.
@Suite struct StoreSearchTests {
    private func library(_ photos: [WriteBatch.Insert]) async throws -> (Store, TemporaryDirectory) {
        let dir = try TemporaryDirectory()
        let store = try await openStore(dir)
        var batch = WriteBatch()
        batch.inserts = photos
        _ = try await store.write { [batch] in try $0.apply(batch) }
        return (store, dir)
    }

    @Test func accentsAndCaseAreIgnoredOnBothSides() async throws {
        let (store, dir) = try await library([
            photo("/lib/1.jpg", 1, "Café Crème"), photo("/lib/2.jpg", 2, "été à Paris"),
            photo("/lib/3.jpg", 3, "Zürich 2019"), photo("/lib/4.jpg", 4, "Straße"), photo("/lib/5.jpg", 5, "cafe"),
        ])
        defer { withExtendedLifetime(dir) {} }
        await #expect(try store.searchPaths("cafe") == ["/lib/5.jpg", "/lib/1.jpg"])
        await #expect(try store.searchPaths("CAFÉ crème") == ["/lib/1.jpg"])
        await #expect(try store.searchPaths("ÉTÉ") == ["/lib/2.jpg"])
        await #expect(try store.searchPaths("zurich") == ["/lib/3.jpg"])
        await #expect(try store.searchPaths("STRASSE") == ["/lib/4.jpg"])
    }

    @Test func descriptionFileNameMakeAndModelMatchButFoldersDoNot() async throws {
        let (store, dir) = try await library([
            photo("/lib/Holidays/IMG_0042.JPG", 1, nil, make: "NIKON CORPORATION", model: "NIKON D750"),
            photo("/lib/b/DSCF0001.jpg", 2, "Holidays", make: "FUJIFILM", model: "X-T3"),
        ])
        defer { withExtendedLifetime(dir) {} }
        await #expect(try store.searchPaths("img_0042") == ["/lib/Holidays/IMG_0042.JPG"])
        await #expect(try store.searchPaths("holidays") == ["/lib/b/DSCF0001.jpg"])
        await #expect(try store.searchPaths("nikon d750") == ["/lib/Holidays/IMG_0042.JPG"])
        await #expect(try store.searchPaths("x-t3 fuji") == ["/lib/b/DSCF0001.jpg"])
        await #expect(try store.searchPaths(".jpg").count == 2)
        await #expect(try store.searchPaths("holidays nikon").isEmpty, "every word must match the same photo")
    }

    @Test func shortWordsAreFoundWhereverTheyAre() async throws {
        let (store, dir) = try await library([
            photo("/lib/a.jpg", 1, "Zürich", model: "X-T3"), photo("/lib/b.jpg", 2, "Beach"),
            photo("/lib/q", 3, nil), photo("/lib/c.png", 4, "Oslo ab"),
        ])
        defer { withExtendedLifetime(dir) {} }
        await #expect(try store.searchPaths("t3") == ["/lib/a.jpg"])
        await #expect(try store.searchPaths("ZU") == ["/lib/a.jpg"])
        // At the very end of a field, and a whole file name of one character.
        await #expect(try store.searchPaths("ab") == ["/lib/c.png"])
        await #expect(try store.searchPaths("q") == ["/lib/q"])
        await #expect(try store.searchPaths("x") == ["/lib/a.jpg"])
        await #expect(try store.searchPaths("p") == ["/lib/c.png", "/lib/b.jpg", "/lib/a.jpg"])
        await #expect(try store.searchPaths("b jpg") == ["/lib/b.jpg"])
        await #expect(try store.searchPaths("ch e") == ["/lib/b.jpg"], "Zürich has ch but no e")
        await #expect(try store.searchPaths("qq").isEmpty)
        await #expect(try store.searchPaths("É") == ["/lib/b.jpg"], "é folds to e, which only Beach holds")
    }

    @Test(arguments: [#"""#, "*", "AND", "OR x", "NEAR(a b)", "folded:abc", #"a"b"#, "(", ")", "-x", "^abc", "NOT",
                      #"""""#, "{folded}: x", "a + b", "\\", "%", "_", "'", ";--"])
    func searchSyntaxInTheInputIsPlainText(text: String) async throws {
        let (store, dir) = try await library([
            photo("/lib/1.jpg", 1, #"He said "hi" AND NEAR(a b) *star* folded:abc 100% a_b \ ;--"#),
            photo("/lib/2.jpg", 2, "nothing special"),
        ])
        defer { withExtendedLifetime(dir) {} }
        // The oracle: a photo is found when its folded text holds every folded word as it stands.
        let texts = ["/lib/1.jpg": SearchText.document(description: #"He said "hi" AND NEAR(a b) *star* folded:abc 100% a_b \ ;--"#,
                                                       path: PathBytes("/lib/1.jpg"), make: nil, model: nil),
                     "/lib/2.jpg": SearchText.document(description: "nothing special", path: PathBytes("/lib/2.jpg"),
                                                       make: nil, model: nil)]
        let words = try #require(SearchQuery(text)).words
        let expected = texts.filter { _, folded in words.allSatisfy(folded.contains) }.keys.sorted(by: >)
        await #expect(try store.searchPaths(text) == expected)
        await #expect(try store.searchPaths(#""hi" AND"#) == ["/lib/1.jpg"])
        await #expect(try store.searchPaths("*star*") == ["/lib/1.jpg"])
        await #expect(try store.searchPaths("100% a_b") == ["/lib/1.jpg"])
        await #expect(try store.searchPaths("1%0").isEmpty, "% is a character, not a wildcard")
        await #expect(try store.searchPaths("a_c").isEmpty, "_ is a character, not a wildcard")
    }

    /// The search index's stored segments, as bytes: any write to the index changes them.
    private func searchIndexBytes(_ store: Store) throws -> [[UInt8]] {
        try store.database.read { db in
            let statement = try db.statement("SELECT id, block FROM search_text_data ORDER BY id")
            var rows: [[UInt8]] = []
            while try statement.step() { rows.append(Array(String(statement.int64(0)).utf8) + statement.blob(1)) }
            return rows
        }
    }

    @Test func updatesMovesAndRemovalsKeepTheIndexRight() async throws {
        let (store, dir) = try await library([photo("/lib/old_name.jpg", 1, "Beach"), photo("/lib/keep.jpg", 2, "Hike")])
        defer { withExtendedLifetime(dir) {} }
        let beachQuery = try #require(SearchQuery("beach"))
        let beach = try #require(try await store.searchPage(beachQuery, groupKey: nil, after: nil, limit: 9).assets.first)
        var update = WriteBatch()
        update.updates = [WriteBatch.Update(id: beach.id, path: PathBytes("/lib/new_name.jpg"), stamp: stamp(3),
                                            content: photo("/x", 3, "Mountains", make: "Canon").content)]
        _ = try await store.write { [update] in try $0.apply(update) }
        await #expect(try store.searchPaths("beach").isEmpty)
        await #expect(try store.searchPaths("old_name").isEmpty)
        await #expect(try store.searchPaths("mountains canon new_name") == ["/lib/new_name.jpg"])
        // A move alone (same content) renames what the file name matches.
        var move = WriteBatch()
        move.updates = [WriteBatch.Update(id: beach.id, path: PathBytes("/lib/moved.jpg"), stamp: stamp(3), content: nil)]
        _ = try await store.write { [move] in try $0.apply(move) }
        await #expect(try store.searchPaths("new_name").isEmpty)
        await #expect(try store.searchPaths("moved mountains") == ["/lib/moved.jpg"])
        // A move to another folder under the same name leaves the index's text as it is (the
        // text holds the file name): a renamed folder of 100,000 photos spent most of its
        // writes deleting and inserting the same text.
        let indexBefore = try searchIndexBytes(store)
        var folderMove = WriteBatch()
        folderMove.updates = [WriteBatch.Update(id: beach.id, path: PathBytes("/lib/2024/moved.jpg"), stamp: stamp(3), content: nil)]
        _ = try await store.write { [folderMove] in try $0.apply(folderMove) }
        #expect(try searchIndexBytes(store) == indexBefore)
        await #expect(try store.searchPaths("moved mountains") == ["/lib/2024/moved.jpg"])
        // A new file over an indexed path replaces the old asset and its text.
        var replace = WriteBatch()
        replace.inserts = [photo("/lib/keep.jpg", 4, "Lake")]
        _ = try await store.write { [replace] in try $0.apply(replace) }
        await #expect(try store.searchPaths("hike").isEmpty)
        await #expect(try store.searchPaths("lake keep") == ["/lib/keep.jpg"])
        var removal = WriteBatch()
        removal.removals = [beach.id]
        _ = try await store.write { [removal] in try $0.apply(removal) }
        await #expect(try store.searchPaths("mountains").isEmpty)
        await #expect(try store.searchPaths("jpg") == ["/lib/keep.jpg"])
        let (jpg, mountains) = try store.database.read { db in
            (try db.integer("SELECT sum(doc) FROM search_terms WHERE term = 'jpg'"),
             try db.integer("SELECT sum(doc) FROM search_terms WHERE term IN ('mou', 'bea', 'hik', 'new')"))
        }
        #expect(jpg == 1 && mountains == nil, "no text left behind by the updates and removals")
    }

    @Test func resultsAreNewestFirstPageByPageInAGroupOrAll() async throws {
        var photos: [WriteBatch.Insert] = []
        for n in 0..<30 {
            var insert = photo("/lib/\(n).jpg", Int64(n), n % 2 == 0 ? "Sea even" : "Sea odd", group: n % 2 == 0 ? "E" : "O")
            // Ten photos share each taken time, so the id breaks ties.
            insert.content.taken = "2020-01-0\(n % 3 + 1)T00:00:00"
            insert.content.takenNs = Int64(n % 3) * 86_400_000_000_000
            photos.append(insert)
        }
        let (store, dir) = try await library(photos)
        defer { withExtendedLifetime(dir) {} }
        let query = try #require(SearchQuery("sea"))
        for group in [nil, "E"] {
            var seen: [StoredAsset] = []
            var position: StorePosition?
            while true {
                let page = try await store.searchPage(query, groupKey: group, after: position, limit: 7).assets
                guard let last = page.last else { break }
                seen += page
                position = StorePosition(value: .integer(last.content.takenNs ?? last.stamp.mtimeNs), id: last.id)
            }
            #expect(seen.count == (group == nil ? 30 : 15))
            #expect(Set(seen.map(\.id)).count == seen.count)
            let keys = seen.map { ($0.content.takenNs ?? 0, $0.id) }
            #expect(keys.elementsEqual(keys.sorted { $0 > $1 }, by: ==), "newest first, then id descending")
        }
    }

    @Test func fetchingTheMatchesAndWalkingTheIndexFindTheSame() async throws {
        var photos: [WriteBatch.Insert] = []
        for n in 0..<60 {
            photos.append(photo("/lib/p\(n).jpg", Int64(n), ["Café", "Cafe au lait", "Beach", "ab"][n % 4], model: n % 5 == 0 ? "X-T3" : nil))
        }
        let (store, dir) = try await library(photos)
        defer { withExtendedLifetime(dir) {} }
        for text in ["cafe", "ab", "cafe x", "p1", "jpg", "t3 cafe", "b", "no such"] {
            let query = try #require(SearchQuery(text))
            let match = try store.database.read { db in
                try SearchMatch(query, terms: { try StoreDatabase.terms(db, beginning: $0) })
            }
            for position in [nil, StorePosition(value: .integer(1_700_000_000_000_000_030), id: "~")] as [StorePosition?] {
                let plan = SearchPlan(groupKey: nil, position: position, limit: 8, words: query.words)
                let (sorted, walked, scanned) = try store.database.read { db -> ([String], [String], [String]) in
                    guard let match else { return ([], [], []) }
                    let scan = try plan.rows(db, .scan(selection: nil, ordered: true)).assets.map(\.id)
                    guard let expression = match.expression else { return (scan, scan, scan) }
                    let matches = try db.statement("SELECT rowid FROM search_text WHERE search_text MATCH ?")
                    try matches.bind([.text(expression)])
                    var rowids: [Int64] = []
                    while try matches.step() { rowids.append(matches.int64(0)) }
                    return (try plan.rows(db, .rowids(rowids)).assets.map(\.id),
                            try plan.rows(db, .walk(expression: expression)).assets.map(\.id), scan)
                }
                #expect(sorted == walked, "\(text)")
                #expect(sorted == scanned, "\(text): the index finds what testing every text finds")
                #expect(text != "no such" ? !sorted.isEmpty : sorted.isEmpty, "\(text)")
            }
        }
    }

    @Test func aLimitedSelectionFindsOnlyItsOwnPhotos() async throws {
        let (store, dir) = try await library([
            photo("/lib/1.jpg", 1, "Beach day", group: "beach"), photo("/lib/2.jpg", 2, "Beach night", group: "night"),
            photo("/lib/3.jpg", 3, "Hike", group: "hike"),
        ])
        defer { withExtendedLifetime(dir) {} }
        let hike = try await store.searchPaths("hike")
        let hikeID = try #require(try await store.read { try $0.assets(paths: [PathBytes("/lib/3.jpg")]) }.first?.id)
        #expect(hike == ["/lib/3.jpg"])
        let selection = StoreSelection(groupKeys: ["beach"], ids: [hikeID])
        await #expect(try store.searchPaths("beach", selection: selection) == ["/lib/1.jpg"])
        await #expect(try store.searchPaths("jpg", selection: selection) == ["/lib/3.jpg", "/lib/1.jpg"])
        await #expect(try store.searchPaths("night", selection: selection).isEmpty)
        await #expect(try store.searchPaths("h", selection: selection) == ["/lib/3.jpg", "/lib/1.jpg"])
    }

    @Test func aLimitedSearchNeverTouchesTheFullTextIndexAndTheOwnersUsesIt() throws {
        let dir = try TemporaryDirectory()
        let store = try Store(path: dir.file("index.sqlite"))
        let selection = StoreSelection(groupKeys: ["g"], ids: ["x"])
        let plan = SearchPlan(groupKey: nil, position: StorePosition(value: .integer(5), id: "a"), limit: 10, words: ["a"])
        let details = try store.database.read { db -> [String: String] in
            var details: [String: String] = [:]
            for (name, shape) in [("scan", SearchPlan.Shape.scan(selection: selection, ordered: false)),
                                  ("rowids", .rowids([1, 2])),
                                  ("walk", .walk(expression: #""abc""#))] {
                let (sql, values) = plan.statement(shape)
                let explain = try db.statement("EXPLAIN QUERY PLAN " + sql)
                try explain.bind(values)
                var lines: [String] = []
                while try explain.step() { lines.append(explain.text(3) ?? "") }
                details[name] = lines.joined(separator: "\n")
            }
            return details
        }
        // Each photo's text comes from its own row, never from the index.
        #expect(details["scan"]?.contains("search_text") == false, "\(details["scan"] ?? "")")
        #expect(details["scan"]?.contains(":M") == false, "\(details["scan"] ?? "")")
        #expect(details["rowids"]?.contains("SEARCH a USING INTEGER PRIMARY KEY (rowid=?)") == true,
                "\(details["rowids"] ?? "")")
        #expect(details["walk"]?.contains("VIRTUAL TABLE INDEX 0:M") == true, "\(details["walk"] ?? "")")
        #expect(details["walk"]?.contains("SEARCH a USING INDEX assets_by_taken (taken_key<?)") == true, "\(details["walk"] ?? "")")
    }
}
