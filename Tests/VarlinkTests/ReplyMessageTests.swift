import Foundation
import Testing
@testable import Varlink
import VarlinkCore

/// A reply whose field is carried as raw bytes comes out, in any piece size, as the very bytes of
/// the same reply encoded whole.
struct ReplyMessageTests {
    struct Image: Codable, Equatable {
        var data: String
        var degraded: Bool
        var width: Int
    }

    static func whole(_ raw: [UInt8]) throws -> [UInt8] {
        let parameters = Image(data: Data(raw).base64EncodedString(), degraded: false, width: 7)
        return JSONWire.reply(parametersJSON: try JSONWire.encodeObject(parameters), continues: false)
    }

    static func carried(_ raw: [UInt8]) throws -> ReplyMessage {
        let empty = JSONWire.reply(parametersJSON: try JSONWire.encodeObject(Image(data: "", degraded: false, width: 7)),
                                   continues: false)
        return try ReplyMessage(empty, base64: raw, in: "data")
    }

    @Test("pieces of every size join into the whole reply", arguments: [0, 1, 2, 3, 4, 5, 100, 3001])
    func piecesJoin(rawCount: Int) throws {
        let raw = (0..<rawCount).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) }
        let expected = try Self.whole(raw)
        let message = try Self.carried(raw)
        #expect(message.count == expected.count)
        #expect(message.joined() == expected)
        for size in [1, 4, 5, 7, 8, 64, 1000, expected.count + 10] {
            var pieces = message.pieces(of: size)
            var joined: [UInt8] = []
            var count = 0
            while let piece = pieces.next() {
                #expect(!piece.isEmpty)
                #expect(piece.count <= max(4, size))
                joined += piece
                count += 1
                try #require(count <= expected.count + 1, "pieces never end")
            }
            #expect(joined == expected, "piece size \(size)")
        }
    }

    @Test("a field that is not a single empty key of the reply is refused, not sent wrong")
    func missingField() throws {
        let empty = JSONWire.reply(parametersJSON: try JSONWire.encodeObject(Image(data: "x", degraded: false, width: 1)),
                                   continues: false)
        #expect(throws: VarlinkEncodingError.self) { try ReplyMessage(empty, base64: [1, 2, 3], in: "data") }
        #expect(throws: VarlinkEncodingError.self) { try ReplyMessage(empty, base64: [1, 2, 3], in: "picture") }
        // Text in a value that looks like the key is not the key.
        struct Posing: Codable { var data: String; var note: String }
        let posing = JSONWire.reply(parametersJSON: try JSONWire.encodeObject(Posing(data: "", note: "\"data\":\"\"")),
                                    continues: false)
        let message = try ReplyMessage(posing, base64: [0xFF], in: "data")
        let decoded = try JSONDecoder().decode([String: Posing].self, from: Data(message.joined().dropLast()))
        #expect(decoded["parameters"]?.data == "/w==")
        #expect(decoded["parameters"]?.note == "\"data\":\"\"")
    }
}
