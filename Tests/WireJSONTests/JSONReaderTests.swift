import Foundation
import Testing
import WireJSON

/// The reader against JSONDecoder on the same bytes: what one reads the other reads the same,
/// and what one refuses the other refuses.
@Suite struct JSONReaderTests {
    private func decoded<T: Decodable>(_ type: T.Type, _ text: [UInt8]) -> T? {
        try? JSONDecoder().decode(T.self, from: Data(text))
    }

    private func read<T: JSONReadable>(_ type: T.Type, _ text: [UInt8]) -> T? {
        var reader = JSONReader(text)
        guard let value = try? T(json: &reader), (try? reader.finish()) != nil else { return nil }
        return value
    }

    @Test(arguments: [
        #""plain""#, #""""#, #""\u0041\n\/\\\"\b\f\r\t""#, #""\ud83d\ude00""#, #""\uD83D\uDE00""#,
        #""\u00e9 e\u0301 é 😀""#, #""nul \u0000 del \u007f""#, "\"del \u{7F}\"", #"  "spaced"  "#,
    ])
    func stringsReadAsJSONDecoderReadsThem(text: String) throws {
        let bytes = Array(text.utf8)
        let expected = try #require(decoded(String.self, bytes))
        let value = try #require(read(String.self, bytes))
        // Bytes, not ==: String's == would let "é" stand for "e\u{301}".
        #expect(Array(value.utf8) == Array(expected.utf8))
    }

    @Test(arguments: [
        #""\ud83d""#, #""\ude00""#, #""\ud83dx""#, #""\ud83d\u0041""#, #""\x""#, #""\u12""#, #""\u12G4""#,
        "\"tab\there\"", "\"line\nbreak\"", #""open"#, #""ends in \"#, "'single'", #""a" "b""#,
    ])
    func stringsJSONDecoderRefusesAreRefused(text: String) {
        #expect(decoded(String.self, Array(text.utf8)) == nil)
        #expect(read(String.self, Array(text.utf8)) == nil)
    }

    @Test(arguments: [[0xFF], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xE2, 0x82]] as [[UInt8]])
    func stringsThatAreNotUTF8AreRefused(inner: [UInt8]) {
        let bytes = [UInt8(ascii: "\"")] + inner + [UInt8(ascii: "\"")]
        #expect(decoded(String.self, bytes) == nil)
        #expect(read(String.self, bytes) == nil)
    }

    @Test(arguments: [
        "0", "-0", "42", "-17", "1.0", "1e2", "1E2", "100e-2", "0.1e1", "-1.0", "1e18", "1e-400",
        "9223372036854775807", "-9223372036854775808",
    ])
    func integersReadAsJSONDecoderReadsThem(text: String) throws {
        let expected = try #require(decoded(Int.self, Array(text.utf8)))
        #expect(read(Int.self, Array(text.utf8)) == expected)
    }

    @Test(arguments: [
        "1.5", "9223372036854775808", "-9223372036854775809", "12345678901234567890123", "1e19", "1E400",
        "9.223372036854775807e18", "01", "1.", ".5", "-", "+1", "1e", "0x10", "NaN", "true", "null", #""1""#, "[1]",
    ])
    func integersJSONDecoderRefusesAreRefused(text: String) {
        #expect(decoded(Int.self, Array(text.utf8)) == nil)
        #expect(read(Int.self, Array(text.utf8)) == nil)
    }

    @Test(arguments: [
        "0", "-0.0", "0.1", "1", "2.5e3", "123456789012345678901234567890", "2.2250738585072011e-308",
        "1.7976931348623157e308", "-1e-300",
    ])
    func doublesReadAsJSONDecoderReadsThem(text: String) throws {
        let expected = try #require(decoded(Double.self, Array(text.utf8)))
        let value = try #require(read(Double.self, Array(text.utf8)))
        #expect(value.bitPattern == expected.bitPattern)
    }

    @Test(arguments: ["1E400", "-1e309", "1e-400", "NaN", "Infinity", "1.7976931348623157e309"])
    func doublesJSONDecoderRefusesAreRefused(text: String) {
        #expect(decoded(Double.self, Array(text.utf8)) == nil)
        #expect(read(Double.self, Array(text.utf8)) == nil)
    }

    @Test func nullsArraysAndMapsReadAsJSONDecoderReadsThem() throws {
        let text = Array(#" { "a" : [ 1 , null , 3 ] , "b" : [ ] , "c" : null } "#.utf8)
        let expected = try #require(decoded([String: [Int?]?].self, text))
        #expect(read([String: [Int?]?].self, text) == expected)
        #expect(read(Bool.self, Array("true".utf8)) == true)
        #expect(read(Bool?.self, Array("null".utf8)) == .some(nil))
        #expect(read(Bool.self, Array("nul".utf8)) == nil)
        #expect(read(Bool.self, Array("1".utf8)) == nil)
    }

    /// Where JSONDecoder is lenient the reader is not: the server never sends these.
    @Test(arguments: [
        #"{"a":1,}"#, "[1,]", #"{"a":1,"a":2}"#, "\u{FEFF}[1]", "[1] x", "[1]\u{0}", "[01]", #"["\q"]"#,
    ])
    func malformedTextIsRefused(text: String) {
        #expect(read([String: Int].self, Array(text.utf8)) == nil)
        #expect(read([Int].self, Array(text.utf8)) == nil)
    }

    @Test func skippedValuesAreCheckedAndBoundedInDepth() throws {
        var reader = JSONReader(Array(#"{"x":[{"y":[true,false,null,-1.5e3,"\u00e9"]},{}],"z":1}"#.utf8))
        try reader.skipValue()
        try reader.finish()
        let nested = Array(repeating: UInt8(ascii: "["), count: 500) + Array(repeating: UInt8(ascii: "]"), count: 500)
        var shallow = JSONReader(nested)
        try shallow.skipValue()
        let deep = Array(repeating: UInt8(ascii: "["), count: 100_000)
        var hostile = JSONReader(deep)
        #expect(throws: JSONReadError.self) { try hostile.skipValue() }
        for bad in [#"{"a"}"#, #"{"a":}"#, "[tru]", #"{1:2}"#, "[", "{", #"["\ud800"]"#] {
            var reader = JSONReader(Array(bad.utf8))
            #expect(throws: JSONReadError.self, "\(bad)") { try reader.skipValue() }
        }
    }

    @Test func aPartOfTheBytesIsReadAlone() throws {
        let bytes = Array(#"xx"inner"yy"#.utf8)
        var reader = JSONReader(bytes, range: 2..<9)
        #expect(try reader.readString() == "inner")
        try reader.finish()
        var short = JSONReader(bytes, range: 2..<8)
        let error = try #require(throws: JSONReadError.self) { try short.readString() }
        #expect(error.offset == 2)
    }
}
