#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import VarlinkCore

/// One outgoing message, whole or with one string field carried as raw bytes and turned into
/// base64 only piece by piece as the client takes it.
///
/// An image reply is tens of MB of base64. Held as JSON text it cost photod its size three or four
/// times over while it was built (the base64 string, the encoder's buffer, the message) and once
/// more for as long as a slow client took to read it; held as the raw image it costs three
/// quarters of its size once, plus one piece.
struct ReplyMessage: Sendable {
    /// The message up to and including the opening quote of the carried field (or all of it).
    let head: [UInt8]
    /// The field's value before base64; empty for a whole message.
    let raw: [UInt8]
    /// The rest of the message after the field's closing quote, the NUL terminator included.
    let tail: [UInt8]

    /// A message sent as it is.
    init(whole: [UInt8]) {
        self.head = whole
        self.raw = []
        self.tail = []
    }

    /// `message` (whose string field `field` is empty) with `raw` as base64 in that field.
    init(_ message: [UInt8], base64 raw: [UInt8], in field: String) throws {
        let marker = Array("\"\(field)\":\"\"".utf8)
        // A key starts right after `{` or `,`: inside a JSON string a quote is escaped, so this
        // finds the key itself and not text that looks like it in some value.
        let starts = Self.occurrences(of: marker, in: message).filter { $0 > 0 && [UInt8(ascii: "{"), UInt8(ascii: ",")].contains(message[$0 - 1]) }
        guard starts.count == 1, let start = starts.first else {
            throw VarlinkEncodingError(description: "the reply has no single empty string field \"\(field)\" to carry base64")
        }
        let quote = start + marker.count - 1
        self.head = Array(message[..<quote])
        self.raw = raw
        self.tail = Array(message[quote...])
    }

    /// The message's length in bytes on the wire.
    var count: Int { head.count + Self.base64Count(raw.count) + tail.count }

    /// The whole message in one array (for a message small enough to queue at once).
    func joined() -> [UInt8] {
        // Every ordinary reply is whole: no copy of it.
        if raw.isEmpty, tail.isEmpty { return head }
        var pieces = self.pieces(of: max(4, count))
        var message: [UInt8] = []
        message.reserveCapacity(count)
        while let piece = pieces.next() { message += piece }
        return message
    }

    /// The message in pieces of at most `size` bytes (at least 4), each made when asked for.
    func pieces(of size: Int) -> Pieces {
        Pieces(message: self, size: max(4, size))
    }

    /// Base64 text length of `count` bytes, padding included.
    static func base64Count(_ count: Int) -> Int { (count + 2) / 3 * 4 }

    private static func occurrences(of needle: [UInt8], in haystack: [UInt8]) -> [Int] {
        guard !needle.isEmpty, haystack.count >= needle.count else { return [] }
        var found: [Int] = []
        for index in 0...(haystack.count - needle.count) where haystack[index] == needle[0] {
            if haystack[index..<(index + needle.count)].elementsEqual(needle) { found.append(index) }
        }
        return found
    }

    /// The pieces of one message, in order; base64 is made for one piece at a time.
    struct Pieces: IteratorProtocol, Sendable {
        let message: ReplyMessage
        let size: Int
        /// Bytes of the whole message already handed out.
        private(set) var offset = 0

        init(message: ReplyMessage, size: Int) {
            self.message = message
            self.size = size
        }

        mutating func next() -> [UInt8]? {
            let head = message.head.count
            let encoded = ReplyMessage.base64Count(message.raw.count)
            let total = message.count
            guard offset < total else { return nil }
            var piece: [UInt8] = []
            piece.reserveCapacity(min(size, total - offset))
            while piece.count < size, offset < total {
                let room = size - piece.count
                if offset < head {
                    let end = min(head, offset + room)
                    piece += message.head[offset..<end]
                    offset = end
                } else if offset < head + encoded {
                    // Whole groups of 3 bytes give whole groups of 4 characters and no padding
                    // but at the very end, so pieces join into the one base64 text. What is
                    // left of it is a multiple of 4 characters: less room ends the piece.
                    let done = offset - head
                    guard room >= 4 else { break }
                    let characters = min(encoded - done, room / 4 * 4)
                    let from = done / 4 * 3
                    let to = min(message.raw.count, from + characters / 4 * 3)
                    piece += Data(message.raw[from..<to]).base64EncodedData()
                    offset = head + done + characters
                } else {
                    let start = offset - head - encoded
                    let end = min(message.tail.count, start + room)
                    piece += message.tail[start..<end]
                    offset += end - start
                }
            }
            return piece
        }
    }
}
