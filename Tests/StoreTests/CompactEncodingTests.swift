import Foundation
import PhotoTestSupport
import SQLite
import Testing
@testable import Store

/// The compact encodings read back exactly what was written, and sort as what they stand for.
@Suite struct CompactEncodingTests {
    @Test func idsAreTenBytesThatSortAsTheirText() throws {
        let ids = (0..<500).map { _ in AssetID.generate() } + ["0000000000000000", "zzzzzzzzzzzzzzzz"]
        let db = try SQLiteConnection(path: ":memory:", create: true)
        try db.execute("CREATE TABLE t(id)")
        for id in ids {
            #expect(AssetEncoding.idBytes(id)?.count == 10)
            try db.statement("INSERT INTO t(id) VALUES (?)").bind([AssetEncoding.id(id)]).run()
        }
        let statement = try db.statement("SELECT id FROM t ORDER BY id")
        var read: [String] = []
        while try statement.step() { read.append(AssetEncoding.idText(statement, 0)) }
        #expect(read == ids.sorted(), "the bytes read back as the ids, in the ids' order")
        #expect(AssetEncoding.idBytes("legacy-id") == nil)
        #expect(AssetEncoding.idBytes("ABCDEFGHJKMNPQRS") == nil, "upper case is not an id")
    }

    @Test func aPrefixIsARangeOfStoredIds() throws {
        let range = try #require(AssetEncoding.idRange(prefix: "fs9"))
        #expect(range.low == AssetEncoding.id("fs90000000000000"))
        #expect(range.high == AssetEncoding.id("fsa0000000000000"))
        let carried = try #require(AssetEncoding.idRange(prefix: "0zz"))
        #expect(carried.high == AssetEncoding.id("1000000000000000"))
        #expect(try #require(AssetEncoding.idRange(prefix: "zz")).high == nil)
        #expect(AssetEncoding.idRange(prefix: "fsi") == nil, "i is not in the alphabet: no id has it")
        #expect(AssetEncoding.idRange(prefix: String(repeating: "a", count: 17)) == nil)
    }

    /// The Swift rule and SQLite's strftime write the same text for every time stored as ''.
    @Test(arguments: [0, 1, -1, 86_399, 951_782_400, 1_622_887_200, -14_182_940, 9_000_000_000, -9_000_000_000,
                      4_102_444_800] as [Int64])
    func aCameraTimeWithoutOffsetIsItsKeyWrittenOut(seconds: Int64) throws {
        let nanoseconds = seconds * 1_000_000_000
        let text = try #require(AssetEncoding.canonicalTaken(nanoseconds))
        let db = try SQLiteConnection(path: ":memory:", create: true)
        let statement = try db.statement("SELECT strftime('%Y-%m-%dT%H:%M:%S', ? / 1000000000, 'unixepoch')")
        try statement.bind([.integer(nanoseconds)])
        #expect(try statement.step())
        #expect(statement.text(0) == text)
        #expect(AssetEncoding.taken(text, takenNs: nanoseconds) == .text(""))
        #expect(AssetEncoding.taken(stored: "", takenKey: nanoseconds) == text)
        #expect(AssetEncoding.taken(text + "+02:00", takenNs: nanoseconds) == .text(text + "+02:00"))
        #expect(AssetEncoding.taken(text, takenNs: nanoseconds + 1) == .text(text), "a fraction keeps the text")
    }

    @Test func aLoggedChangeReadsBackWithEveryList() throws {
        var change = CommittedChange(token: 0, inserted: [AssetID.generate(), AssetID.generate()],
                                     removed: ["legacy-id", AssetID.generate()], updated: [AssetID.generate()],
                                     moved: [MovedAsset(id: "m", from: [1, 2], to: [3])], groupsChanged: ["Beach"],
                                     groupsRemoved: ["Other"], fallbackChanged: nil, fallbackRemoved: true)
        let payload = try ChangePayload.encode(change)
        let db = try SQLiteConnection(path: ":memory:", create: true)
        let statement = try db.statement("SELECT ?, ?")
        let json = String(decoding: try JSONEncoder().encode(change), as: UTF8.self)
        #expect(payload.count < json.utf8.count)
        try statement.bind([.blob(payload), .text(json)])
        #expect(try statement.step())
        #expect(ChangePayload.decode(statement, 0) == change)
        #expect(ChangePayload.decode(statement, 1) == change, "a payload logged as JSON text reads as before")
        change.removed = []
        for cut in [0, 1, 5, payload.count - 1] {
            let truncated = try db.statement("SELECT ?")
            try truncated.bind([.blob(Array(payload.prefix(cut)))])
            #expect(try truncated.step())
            #expect(ChangePayload.decode(truncated, 0) == nil, "a cut payload is unreadable, never a crash")
        }
    }
}
