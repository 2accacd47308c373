import Metadata
import PhotoTestSupport
import Testing

@Suite("WebP: EXIF and XMP chunks of an extended file", .timeLimit(.minutes(1)))
struct WebPContainerTests {
    @Test(
        "EXIF chunk holding a bare TIFF block or one behind Exif\\0\\0",
        arguments: TIFFByteOrder.allCases, [false, true])
    func exifChunk(byteOrder: TIFFByteOrder, exifHeader: Bool) {
        let webp = WebPFixture(exif: Sample.exif(byteOrder), exifHasHeader: exifHeader)
        let metadata = MetadataReader.read(bytes: webp.make())
        #expect(metadata.format == .webp)
        #expect(metadata.descriptions == Sample.candidates())
        Sample.expectExifFacts(metadata)
    }

    @Test("XMP chunk, alone and after EXIF")
    func xmpChunk() {
        let xmpOnly = MetadataReader.read(bytes: WebPFixture(xmp: Sample.xmp).make())
        #expect(xmpOnly.descriptions == Sample.candidates(exif: false, xmp: true))
        let both = MetadataReader.read(bytes: WebPFixture(exif: Sample.exif(.bigEndian), xmp: Sample.xmp).make())
        #expect(both.descriptions == Sample.candidates(xmp: true))
        Sample.expectExifFacts(both)
    }

    @Test("an odd-sized chunk's pad byte is skipped before EXIF")
    func oddChunkPadding() {
        // The 17-byte VP8L chunk is already odd; an odd unknown chunk before it doubles the chance to slip.
        let webp = WebPFixture(exif: Sample.exif(.littleEndian), xmp: Sample.xmp).make()
        let extra = WebPFixture.chunk("ABCD", [1, 2, 3])
        #expect(extra.count == 12)
        let metadata = MetadataReader.read(bytes: Self.inserting(extra, afterVP8XIn: webp))
        #expect(metadata.descriptions == Sample.candidates(xmp: true))
    }

    @Test("a RIFF size larger than the file still reads the chunks that are there")
    func riffSizeTooLarge() {
        let webp = WebPFixture(exif: Sample.exif(.littleEndian), xmp: Sample.xmp).make()
        let metadata = MetadataReader.read(bytes: Sample.patching(webp, at: 4, with: [0xF0, 0xFF, 0xFF, 0xFF]))
        #expect(metadata.format == .webp)
        Sample.expectAbsentOrExact(metadata.descriptions.exif, Sample.bytes(Sample.exifText))
        Sample.expectAbsentOrExact(metadata.descriptions.xmp, Sample.bytes(Sample.xmpText))
    }

    @Test("a chunk size of 0xFFFFFFFF before the metadata chunks ends the walk without a crash")
    func hugeChunkSize() {
        let webp = WebPFixture(exif: Sample.exif(.littleEndian), xmp: Sample.xmp).make()
        let bogus = Array("ABCD".utf8) + [0xFF, 0xFF, 0xFF, 0xFF]
        let metadata = MetadataReader.read(bytes: Self.inserting(bogus, afterVP8XIn: webp))
        #expect(metadata.format == .webp)
        Sample.expectAbsentOrExact(metadata.descriptions.exif, Sample.bytes(Sample.exifText))
        Sample.expectAbsentOrExact(metadata.descriptions.xmp, Sample.bytes(Sample.xmpText))
    }

    @Test("an EXIF chunk whose TIFF header is garbage gives no EXIF facts")
    func garbageExif() {
        let tiff = Sample.exif(.littleEndian).tiffBlock()
        var payload = tiff
        payload[0] = 0x58  // "XI*\0" is no byte order mark
        let chunks = WebPFixture.chunk("VP8X", [0x08, 0, 0, 0, 1, 0, 0, 1, 0, 0]) + WebPFixture.chunk("EXIF", payload)
        let bytes = Array("RIFF".utf8) + Self.le32(4 + chunks.count) + Array("WEBP".utf8) + chunks
        let metadata = MetadataReader.read(bytes: bytes)
        #expect(metadata.format == .webp)
        #expect(metadata.descriptions == DescriptionCandidates())
        #expect(metadata.taken == nil)
    }

    @Test("every prefix of a WebP with EXIF and XMP", arguments: TIFFByteOrder.allCases, [false, true])
    func truncation(byteOrder: TIFFByteOrder, exifHeader: Bool) {
        let webp = WebPFixture(exif: Sample.exif(byteOrder), exifHasHeader: exifHeader, xmp: Sample.xmp).make()
        Sample.expectPrefixesNeverLie(webp, expected: Sample.candidates(xmp: true))
    }

    /// The file with `chunk` spliced in after VP8X (RIFF header 12 bytes, VP8X chunk 18), RIFF size fixed up.
    private static func inserting(_ chunk: [UInt8], afterVP8XIn webp: [UInt8]) -> [UInt8] {
        let spliced = Array(webp[..<30]) + chunk + webp[30...]
        return Sample.patching(spliced, at: 4, with: le32(spliced.count - 8))
    }

    private static func le32(_ value: Int) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24 & 0xFF)]
    }
}
