import SQLite
import Testing

/// Column reads made without arrays of their own: the same bytes as `blob(_:)` gives.
@Suite struct StatementBytesTests {
    @Test(arguments: [
        ("x'2F612F'", "x'622E6A7067'", [0x2F, 0x61, 0x2F, 0x62, 0x2E, 0x6A, 0x70, 0x67]),
        ("NULL", "x'62'", [0x62]),
        ("x'2F'", "NULL", [0x2F]),
        ("x''", "x''", []),
        ("'/a/'", "'b'", [0x2F, 0x61, 0x2F, 0x62]),
    ] as [(String, String, [UInt8])])
    func twoColumnsReadAsOneArrayAreBothColumnsBytes(first: String, second: String, expected: [UInt8]) throws {
        let db = try SQLiteConnection(path: ":memory:", create: true)
        let statement = try db.statement("SELECT \(first), \(second)")
        #expect(try statement.step())
        #expect(statement.blob(0, followedBy: 1) == expected)
        #expect(statement.blob(0) + statement.blob(1) == expected)
    }

    @Test(arguments: [
        ("x'01'", (UInt128(1), 1)),
        ("x'0102'", (UInt128(0x0102), 2)),
        ("x'FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF'", (UInt128.max, 16)),
    ] as [(String, (UInt128, Int))])
    func aSmallBlobIsItsBigEndianNumber(value: String, expected: (UInt128, Int)) throws {
        let db = try SQLiteConnection(path: ":memory:", create: true)
        let statement = try db.statement("SELECT \(value)")
        #expect(try statement.step())
        let read = try #require(statement.smallBlob(0))
        #expect(read.number == expected.0 && read.count == expected.1)
    }

    @Test(arguments: ["x'000102030405060708090A0B0C0D0E0F10'", "x''", "NULL", "'text'", "7"])
    func anythingButABlobOfOneToSixteenBytesIsNoSmallBlob(value: String) throws {
        let db = try SQLiteConnection(path: ":memory:", create: true)
        let statement = try db.statement("SELECT \(value)")
        #expect(try statement.step())
        #expect(statement.smallBlob(0) == nil)
    }
}
