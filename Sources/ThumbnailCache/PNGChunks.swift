/// One `tEXt` entry: a keyword and its text, both Latin-1 as the PNG specification defines them.
public struct PNGText: Sendable, Equatable {
    /// The keyword, such as `Thumb::URI`.
    public var keyword: String
    /// The text stored under the keyword.
    public var text: String

    /// An entry; nothing is checked until it is written.
    public init(keyword: String, text: String) {
        self.keyword = keyword
        self.text = text
    }
}

/// Why a PNG could not be read or extended.
public enum PNGError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file does not start with the PNG signature.
    case notPNG
    /// The chunk structure is broken (the reason says where).
    case malformed(String)
    /// A text entry cannot be written as `tEXt` (the reason says why).
    case invalidText(String)

    /// A sentence for logs and error messages.
    public var description: String {
        switch self {
        case .notPNG: "not a PNG file (bad signature)"
        case .malformed(let reason): "malformed PNG: \(reason)"
        case .invalidText(let reason): "cannot write PNG text: \(reason)"
        }
    }
}

/// What the thumbnail cache needs from a PNG: its size and its `tEXt` entries.
public struct PNGInfo: Sendable, Equatable {
    /// Pixel columns, from IHDR.
    public var width: Int
    /// Pixel rows, from IHDR.
    public var height: Int
    /// Every well-formed `tEXt` entry, in file order (up to `PNGChunks.maxTextEntries`).
    public var text: [PNGText]

    /// The text of the first entry with `keyword`, if any.
    public func text(for keyword: String) -> String? {
        text.first { $0.keyword == keyword }?.text
    }
}

/// Reads and inserts PNG chunks without decoding pixels. Every byte is treated as hostile: each
/// length is checked against what is left before anything is sliced, and each chunk's CRC is
/// checked, so a truncated or corrupted file is refused rather than half read.
public enum PNGChunks {
    /// The eight bytes every PNG starts with.
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// More chunks than a thumbnail ever has; bounds the walk's bookkeeping for a file of empty chunks.
    public static let maxChunks = 100_000
    /// Keywords are 1 to 79 bytes (PNG specification 11.3.4.3).
    public static let maxKeywordLength = 79
    /// A text longer than this is skipped when reading: the longest URI of a 4096-byte path,
    /// every byte escaped, is about 12 KiB.
    public static let maxTextLength = 64 * 1024
    /// Text entries past this count are not collected, so a file of many tiny chunks cannot
    /// make the reader build a huge array of strings.
    public static let maxTextEntries = 256

    /// The largest length a chunk may declare (PNG specification 5.3).
    private static let maxChunkLength = 0x7FFF_FFFF
    /// Length, type and CRC around a chunk's data.
    private static let chunkOverhead = 12
    private static let ihdrLength = 13

    /// Width, height and text of a valid PNG; nil for anything that is not one.
    public static func read(_ png: [UInt8]) -> PNGInfo? {
        try? parse(png)
    }

    /// Width, height and text of a valid PNG; the error says what is wrong with anything else.
    public static func parse(_ png: [UInt8]) throws(PNGError) -> PNGInfo {
        let chunks = try walk(png)
        // walk() returns at least IHDR, checked, or throws.
        guard let header = chunks.first else { throw .malformed("no chunks") }
        let width = Int(uint32(png, at: header.data.lowerBound))
        let height = Int(uint32(png, at: header.data.lowerBound + 4))
        var text: [PNGText] = []
        for chunk in chunks where chunk.type == "tEXt" && text.count < maxTextEntries {
            if let entry = decodeText(png[chunk.data]) { text.append(entry) }
        }
        return PNGInfo(width: width, height: height, text: text)
    }

    /// The `tEXt` entries among the chunks that lie whole in `prefix`, the first bytes of a PNG,
    /// up to the image data: enough to tell whose a cache file is without reading its pixels
    /// (the cache puts its text right after IHDR). Empty for anything that does not start as a PNG.
    static func leadingText(_ prefix: [UInt8]) -> [PNGText] {
        guard prefix.count >= signature.count, prefix[0..<signature.count].elementsEqual(signature) else { return [] }
        var text: [PNGText] = []
        var position = signature.count
        while prefix.count - position >= chunkOverhead, text.count < maxTextEntries {
            let length = Int(uint32(prefix, at: position))
            let type = String(decoding: prefix[(position + 4)..<(position + 8)], as: UTF8.self)
            guard type != "IDAT", length <= prefix.count - position - chunkOverhead else { break }
            let data = (position + 8)..<(position + 8 + length)
            guard CRC32.checksum(prefix[(position + 4)..<data.upperBound]) == uint32(prefix, at: data.upperBound) else { break }
            if type == "tEXt", let entry = decodeText(prefix[data]) { text.append(entry) }
            position = data.upperBound + 4
        }
        return text
    }

    /// `png` with a `tEXt` chunk for each entry right after IHDR, where every reader sees them
    /// before the image data. Text chunks (`tEXt`, `zTXt`, `iTXt`) already carrying one of
    /// the keywords are dropped, so a key never has two values; bytes after IEND are dropped.
    public static func insertingText(_ entries: [PNGText], into png: [UInt8]) throws(PNGError) -> [UInt8] {
        let chunks = try walk(png)
        let keywords = entries.map(\.keyword)
        var inserted: [UInt8] = []
        for entry in entries {
            inserted += try chunk(type: "tEXt", data: encodeText(entry))
        }
        var result = signature
        result.reserveCapacity(png.count + inserted.count)
        for (index, chunk) in chunks.enumerated() {
            if ["tEXt", "zTXt", "iTXt"].contains(chunk.type), let keyword = keyword(png[chunk.data]),
                keywords.contains(keyword)
            {
                continue
            }
            result += png[chunk.whole]
            if index == 0 { result += inserted }
        }
        return result
    }

    /// One chunk: big-endian length, the four-letter type, the data and the CRC-32 of type and data.
    public static func chunk(type: String, data: [UInt8]) throws(PNGError) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        guard typeBytes.count == 4, typeBytes.allSatisfy(isLetter) else {
            throw .malformed("chunk type \"\(type)\" is not four ASCII letters")
        }
        guard data.count <= maxChunkLength else { throw .malformed("chunk data of \(data.count) bytes") }
        let typeAndData = typeBytes + data
        return bigEndian(UInt32(data.count)) + typeAndData + bigEndian(CRC32.checksum(typeAndData))
    }

    /// A chunk's place in the file: where it starts and ends, and where its data lies.
    struct Chunk {
        var type: String
        var whole: Range<Int>
        var data: Range<Int>
    }

    /// Every chunk from the signature up to and including IEND, each checked for bounds and
    /// CRC; IHDR must come first, with sane dimensions.
    static func walk(_ png: [UInt8]) throws(PNGError) -> [Chunk] {
        guard png.count >= signature.count, png[0..<signature.count].elementsEqual(signature) else { throw .notPNG }
        var chunks: [Chunk] = []
        var position = signature.count
        while true {
            guard chunks.count < maxChunks else { throw .malformed("more than \(maxChunks) chunks") }
            guard png.count - position >= chunkOverhead else { throw .malformed("truncated at byte \(position)") }
            let length = Int(uint32(png, at: position))
            let typeBytes = png[(position + 4)..<(position + 8)]
            guard typeBytes.allSatisfy(isLetter) else { throw .malformed("bad chunk type at byte \(position)") }
            // Compare with what is left before adding, so no sum can overflow or point past the end.
            guard length <= maxChunkLength, length <= png.count - position - chunkOverhead else {
                throw .malformed("chunk at byte \(position) declares \(length) bytes past the end of the file")
            }
            let data = (position + 8)..<(position + 8 + length)
            let stored = uint32(png, at: data.upperBound)
            guard CRC32.checksum(png[(position + 4)..<data.upperBound]) == stored else {
                throw .malformed("bad CRC in chunk at byte \(position)")
            }
            let type = String(decoding: typeBytes, as: UTF8.self)
            chunks.append(Chunk(type: type, whole: position..<(data.upperBound + 4), data: data))
            position = data.upperBound + 4
            if chunks.count == 1 { try checkHeader(chunks[0], in: png) }
            if type == "IEND" { return chunks }
        }
    }

    /// IHDR first, 13 bytes, and dimensions of 1 to 2^31 - 1 as the specification allows.
    private static func checkHeader(_ chunk: Chunk, in png: [UInt8]) throws(PNGError) {
        guard chunk.type == "IHDR", chunk.data.count == ihdrLength else { throw .malformed("IHDR is not the first chunk") }
        let width = uint32(png, at: chunk.data.lowerBound)
        let height = uint32(png, at: chunk.data.lowerBound + 4)
        guard (1...UInt32(maxChunkLength)).contains(width), (1...UInt32(maxChunkLength)).contains(height) else {
            throw .malformed("image size \(width)x\(height)")
        }
    }

    /// A `tEXt` chunk's keyword and text; nil when the keyword is not a valid one or the text
    /// is over the length this reader keeps.
    private static func decodeText(_ data: ArraySlice<UInt8>) -> PNGText? {
        guard let separator = data.firstIndex(of: 0) else { return nil }
        let keyword = data[data.startIndex..<separator]
        let text = data[(separator + 1)...]
        guard isValidKeyword(keyword), text.count <= maxTextLength, !text.contains(0) else { return nil }
        return PNGText(keyword: latin1(keyword), text: latin1(text))
    }

    /// The keyword of any text chunk (`tEXt`, `zTXt` and `iTXt` all start with keyword and NUL).
    private static func keyword(_ data: ArraySlice<UInt8>) -> String? {
        guard let separator = data.prefix(maxKeywordLength + 1).firstIndex(of: 0) else { return nil }
        return latin1(data[data.startIndex..<separator])
    }

    /// Keyword, NUL, text, with the keyword rules checked so no reader rejects the chunk.
    private static func encodeText(_ entry: PNGText) throws(PNGError) -> [UInt8] {
        guard let keyword = latin1Bytes(entry.keyword), isValidKeyword(keyword[...]) else {
            throw .invalidText("keyword \"\(entry.keyword)\" must be 1-\(maxKeywordLength) printable Latin-1 characters")
        }
        guard let text = latin1Bytes(entry.text), !text.contains(0) else {
            throw .invalidText("text for \"\(entry.keyword)\" is not Latin-1 without NUL")
        }
        return keyword + [0] + text
    }

    /// 1 to 79 printable Latin-1 bytes, no leading, trailing or doubled space (PNG 11.3.4.3).
    private static func isValidKeyword(_ keyword: ArraySlice<UInt8>) -> Bool {
        guard (1...maxKeywordLength).contains(keyword.count), keyword.first != 0x20, keyword.last != 0x20 else {
            return false
        }
        var previous: UInt8 = 0
        for byte in keyword {
            guard (0x20...0x7E).contains(byte) || byte >= 0xA1, !(byte == 0x20 && previous == 0x20) else { return false }
            previous = byte
        }
        return true
    }

    /// Latin-1 maps each byte to the code point of the same number.
    private static func latin1(_ bytes: ArraySlice<UInt8>) -> String {
        var text = String()
        text.unicodeScalars.append(contentsOf: bytes.map { Unicode.Scalar($0) })
        return text
    }

    /// The Latin-1 bytes of `text`; nil when a character is outside Latin-1.
    private static func latin1Bytes(_ text: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            guard scalar.value <= 0xFF else { return nil }
            bytes.append(UInt8(scalar.value))
        }
        return bytes
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    /// The big-endian UInt32 at `offset`; callers have checked that four bytes are there.
    private static func uint32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 16),
         UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }
}
