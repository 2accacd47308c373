import FileSystem
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

    /// Ids already stored and logged keep their bytes: the 80-bit number the characters spell,
    /// 5 bits each, most significant first, as 10 big-endian bytes.
    @Test(arguments: [
        ("0123456789abcdef", [0x00, 0x44, 0x32, 0x14, 0xC7, 0x42, 0x54, 0xB6, 0x35, 0xCF]),
        ("ghjkmnpqrstvwxyz", [0x84, 0x65, 0x3A, 0x56, 0xD7, 0xC6, 0x75, 0xBE, 0x77, 0xDF]),
        ("000000000000000z", [0, 0, 0, 0, 0, 0, 0, 0, 0, 0x1F]),
        ("zzzzzzzzzzzzzzzz", [UInt8](repeating: 0xFF, count: 10)),
    ] as [(String, [UInt8])])
    func anIdIsTheNumberItsCharactersSpell(text: String, bytes: [UInt8]) {
        #expect(AssetEncoding.idBytes(text) == bytes)
        #expect(AssetEncoding.idText(bytes: bytes[...]) == text)
    }

    /// Ids drawn many at a time are all different and all of the one form.
    @Test func idsDrawnInBulkAreDistinctIds() {
        var source = AssetID.Source()
        let ids = (0..<(AssetID.Source.idsPerDraw * 3 + 5)).map { _ in source.next() }
        #expect(Set(ids.map(\.text)).count == ids.count)
        #expect(ids.allSatisfy { AssetEncoding.idBytes($0.text) == $0.bytes })
        #expect(AssetEncoding.idText(bytes: [1, 2, 3][...]) == "", "not 10 bytes")
        #expect(AssetEncoding.idBytes("0123456789abcdef0") == nil, "17 characters")
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
                                     moved: [MovedAsset(id: "m", from: PathBytes([1, 2]), to: PathBytes([3]))], groupsChanged: ["Beach"],
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

    /// Moves are packed as bytes (a path byte was a JSON number: a renamed root of 100,000
    /// photos spent 5 s encoding its change), and a payload of the earlier layout, which kept
    /// them in its JSON, still reads.
    @Test func movesArePackedAndTheEarlierLayoutStillReads() throws {
        let paths = (0..<1000).map { Array("/home/me/Pictures/2024/07/IMG_\($0).jpg".utf8) }
        let change = CommittedChange(token: 7, updated: [AssetID.generate()],
                                     moved: paths.map { MovedAsset(id: AssetID.generate(), from: PathBytes($0), to: PathBytes(Array("/new".utf8) + $0)) },
                                     groupsChanged: ["Beach"])
        let payload = try ChangePayload.encode(change)
        let pathBytes = paths.reduce(0) { $0 + 2 * $1.count + 4 }
        #expect(payload.count < pathBytes + 1000 * 20, "\(payload.count) bytes for \(pathBytes) bytes of paths")
        var earlier = change
        earlier.updated = []
        let json = Array(try JSONEncoder().encode(earlier))
        var version1: [UInt8] = [1] + bigEndian(json.count) + json
        for list in [[], [], change.updated] as [[String]] {
            version1 += bigEndian(list.count)
            for id in list { version1 += [0x80 | 10] + (AssetEncoding.idBytes(id) ?? []) }
        }
        let db = try SQLiteConnection(path: ":memory:", create: true)
        let statement = try db.statement("SELECT ?, ?")
        try statement.bind([.blob(payload), .blob(version1)])
        #expect(try statement.step())
        #expect(ChangePayload.decode(statement, 0) == change)
        #expect(ChangePayload.decode(statement, 1) == change)
        // A count of moves larger than the bytes left could hold is refused before anything is reserved.
        var lying = try ChangePayload.encode(CommittedChange(token: 1))
        lying.replaceSubrange((lying.count - 4)..., with: [0x7F, 0xFF, 0xFF, 0xFF])
        let forged = try db.statement("SELECT ?")
        try forged.bind([.blob(lying)])
        #expect(try forged.step())
        #expect(ChangePayload.decode(forged, 0) == nil)
    }

    private func bigEndian(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
