import PhotoTestSupport
import Testing
@testable import ThumbnailCache

@Suite struct PNGChunksTests {
    private let png = PNGFixture(exifChunk: nil, width: 5, height: 3).make()

    @Test func crc32CheckValue() {
        // The standard check value of CRC-32/ISO-HDLC.
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    }

    @Test func readsSizeOfAPlainPNG() throws {
        let info = try #require(PNGChunks.read(png))
        #expect(info.width == 5)
        #expect(info.height == 3)
        #expect(info.text.isEmpty)
    }

    @Test func insertedTextRoundTripsRightAfterHeader() throws {
        let entries = [
            PNGText(keyword: "Thumb::URI", text: "file:///a%20b.png"),
            PNGText(keyword: "Thumb::MTime", text: "1700000000"),
            PNGText(keyword: "Comment", text: "café"),
        ]
        let tagged = try PNGChunks.insertingText(entries, into: png)
        let info = try #require(PNGChunks.read(tagged))
        #expect(info.text == entries)
        #expect(info.width == 5 && info.height == 3)
        let types = try PNGChunks.walk(tagged).map(\.type)
        #expect(types == ["IHDR", "tEXt", "tEXt", "tEXt", "IDAT", "IEND"])
        // Latin-1 on disk: é is the one byte 0xE9, not UTF-8's two.
        #expect(tagged.contains(0xE9) && !tagged.contains(0xC3))
        // Every original chunk is kept byte for byte.
        let original = try PNGChunks.walk(png)
        for chunk in original.dropFirst() {
            let copy = try #require(try PNGChunks.walk(tagged).first { $0.type == chunk.type })
            #expect(tagged[copy.whole] == png[chunk.whole])
        }
    }

    @Test func insertingAKeyAgainReplacesIt() throws {
        let first = try PNGChunks.insertingText([PNGText(keyword: "Thumb::MTime", text: "1")], into: png)
        let second = try PNGChunks.insertingText([PNGText(keyword: "Thumb::MTime", text: "2")], into: first)
        #expect(PNGChunks.read(second)?.text == [PNGText(keyword: "Thumb::MTime", text: "2")])
    }

    @Test(arguments: ["", String(repeating: "k", count: 80), " lead", "trail ", "two  spaces", "emoji😀", "tab\tkey"])
    func invalidKeywordsAreRefused(keyword: String) {
        #expect(throws: PNGError.self) {
            try PNGChunks.insertingText([PNGText(keyword: keyword, text: "x")], into: png)
        }
    }

    @Test func textThatIsNotLatin1OrHoldsNULIsRefused() {
        #expect(throws: PNGError.self) { try PNGChunks.insertingText([PNGText(keyword: "k", text: "😀")], into: png) }
        #expect(throws: PNGError.self) { try PNGChunks.insertingText([PNGText(keyword: "k", text: "a\u{0}b")], into: png) }
    }

    @Test func badSignatureIsRefused() {
        var bytes = png
        bytes[1] = 0x51
        #expect(PNGChunks.read(bytes) == nil)
        #expect(PNGChunks.read([]) == nil)
        #expect(throws: PNGError.notPNG) { try PNGChunks.insertingText([], into: bytes) }
    }

    @Test func everyTruncationIsRefused() {
        for length in 0..<png.count {
            #expect(PNGChunks.read(Array(png[..<length])) == nil, "prefix of \(length) bytes")
        }
    }

    @Test(arguments: [UInt32(0xFFFF_FFFF), 0x7FFF_FFFF, 0x8000_0000, 1000])
    func lengthPastTheEndIsRefused(length: UInt32) {
        // The IDAT chunk's length field, right after signature and IHDR.
        var bytes = png
        let offset = PNGFixture.endOfHeader
        bytes.replaceSubrange(offset..<(offset + 4), with: bigEndian(length))
        #expect(PNGChunks.read(bytes) == nil)
        #expect(throws: PNGError.self) { try PNGChunks.insertingText([], into: bytes) }
    }

    @Test func badCRCIsRefused() {
        var bytes = png
        bytes[PNGFixture.endOfHeader - 1] ^= 0x01
        #expect(PNGChunks.read(bytes) == nil)
    }

    @Test func headerMustComeFirstWithASize() {
        let rest = Array(png[PNGFixture.endOfHeader...])
        #expect(PNGChunks.read(PNGFixture.signature + rest) == nil)
        let zeroWidth = PNGFixture.signature + PNGFixture.chunk("IHDR", bigEndian(0) + bigEndian(1) + [8, 0, 0, 0, 0]) + rest
        #expect(PNGChunks.read(zeroWidth) == nil)
        let shortHeader = PNGFixture.signature + PNGFixture.chunk("IHDR", bigEndian(1) + bigEndian(1)) + rest
        #expect(PNGChunks.read(shortHeader) == nil)
    }

    @Test func malformedTextEntriesAreSkippedNotFatal() throws {
        let noSeparator = PNGFixture.chunk("tEXt", Array("Thumb::URI".utf8))
        let longKeyword = PNGFixture.chunk("tEXt", [UInt8](repeating: 0x6B, count: 80) + [0] + Array("x".utf8))
        let longText = PNGFixture.chunk("tEXt", Array("big".utf8) + [0] + [UInt8](repeating: 0x61, count: PNGChunks.maxTextLength + 1))
        let good = PNGFixture.chunk("tEXt", Array("ok".utf8) + [0] + Array("yes".utf8))
        let bytes = Array(png[..<PNGFixture.endOfHeader]) + noSeparator + longKeyword + longText + good
            + Array(png[PNGFixture.endOfHeader...])
        #expect(PNGChunks.read(bytes)?.text == [PNGText(keyword: "ok", text: "yes")])
    }

    @Test func textEntriesAreCapped() throws {
        let many = (0..<(PNGChunks.maxTextEntries + 10)).flatMap { _ in PNGFixture.chunk("tEXt", Array("k".utf8) + [0]) }
        let bytes = Array(png[..<PNGFixture.endOfHeader]) + many + Array(png[PNGFixture.endOfHeader...])
        #expect(try #require(PNGChunks.read(bytes)).text.count == PNGChunks.maxTextEntries)
    }

    /// Random byte changes never crash the reader, and whatever it accepts has a valid header.
    @Test func randomCorruptionNeverCrashes() throws {
        var generator = SplitMix64(seed: 0x7468_756D)
        let tagged = try PNGChunks.insertingText([PNGText(keyword: "Thumb::URI", text: "file:///x")], into: png)
        var refused = 0
        for _ in 0..<3000 {
            var bytes = tagged
            for _ in 0..<Int(generator.next() % 4 + 1) {
                let index = Int(generator.next() % UInt64(bytes.count))
                bytes[index] = UInt8(truncatingIfNeeded: generator.next())
            }
            if generator.next() % 4 == 0 { bytes.removeLast(Int(generator.next() % UInt64(bytes.count))) }
            if let info = PNGChunks.read(bytes) { #expect(info.width > 0 && info.height > 0) } else { refused += 1 }
        }
        // Almost every change breaks a CRC; a reader that accepted them all would not be checking.
        #expect(refused > 2500)
    }

    private func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
