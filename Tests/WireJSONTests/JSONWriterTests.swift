import Foundation
import PhotoAPI
import Testing
import WireJSON

/// The writers against JSONEncoder as JSONWire sets it up (sorted keys, slashes as they are):
/// the same bytes for the same value, and the same refusals.
@Suite struct JSONWriterTests {
    private func encoded<T: Encodable>(_ value: T) -> [UInt8]? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { Array($0) }
    }

    private func written<T: JSONWritable>(_ value: T) -> [UInt8]? {
        var writer = JSONWriter()
        guard (try? value.write(json: &writer)) != nil else { return nil }
        return writer.bytes
    }

    @Test func stringsAreEscapedAsJSONEncoderEscapesThem() throws {
        let controls = String(String.UnicodeScalarView((0..<0x20).compactMap { Unicode.Scalar(UInt8($0)) }))
        let strings = [controls, "\"quoted\" \\ back/slash", "del \u{7F} line \u{2028} é e\u{301} 😀", ""]
        let expected = try #require(encoded(strings))
        #expect(written(strings) == expected)
    }

    @Test func numbersAndLiteralsAreWrittenAsJSONEncoderWritesThem() throws {
        let doubles = [1.0, 0.1, 1e20, 1e-7, -0.0, 123456789012345678.0, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 100, 1e16,
                       1e15, 2.5, -3.75e-5, 0.30000000000000004]
        #expect(written(doubles) == encoded(doubles))
        #expect(written([Int.min, -1, 0, Int.max]) == encoded([Int.min, -1, 0, Int.max]))
        #expect(written([true, false]) == encoded([true, false]))
        #expect(written([nil, "x"] as [String?]) == encoded([nil, "x"] as [String?]))
        for refused in [Double.nan, .infinity, -.infinity] {
            #expect(encoded([refused]) == nil)
            #expect(written([refused]) == nil)
        }
    }

    @Test func objectKeysAreSortedByTheirBytes() {
        let map = ["b": 1, "a": 2, "B": 3, "aa": 4, "a1": 5, "a10": 6, "a2": 7, "_x": 8, "Z": 9, "é": 10]
        #expect(written(map) == encoded(map))
        #expect(written([String: [Int]]()) == encoded([String: [Int]]()))
    }

    @Test func generatedParametersAreWrittenAsJSONEncoderWritesThem() throws {
        let lists = [
            ListAssetsParameters(),
            ListAssetsParameters(group: "Beach \"trip\"/2024", sort: .taken, limit: 100, cursor: "c\u{1}", fallback: true,
                                 since: "2020-01-01", until: "2021-01-01", reverse: false),
        ]
        for parameters in lists {
            #expect(written(parameters) == encoded(parameters))
        }
        let request = RequestAuthorizationParameters(reason: "to print", level: .addOnly, needs: [
            Need(level: .readWrite, required: true, reason: "see"), Need(level: .addOnly, reason: "save"),
        ])
        #expect(written(request) == encoded(request))
        #expect(written(NoParameters()) == Array("{}".utf8))
        #expect(written(GetAssetsParameters(ids: ["a", "b"], paths: [])) == encoded(GetAssetsParameters(ids: ["a", "b"], paths: [])))
        let pass = PollPass(ended: "2026-11-29T09:00:00Z", seconds: 0.25, files: 3)
        #expect(written(pass) == encoded(pass))
        #expect(written(PollPass(ended: "x", seconds: .nan)) == nil)
    }
}
