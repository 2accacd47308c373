import Metadata
import PhotoTestSupport
import Testing

@Suite("JPEG XL container: Exif and xml boxes", .timeLimit(.minutes(1)))
struct JXLContainerTests {
    @Test("Exif box with the TIFF header at offset 0 or 6", arguments: TIFFByteOrder.allCases, [false, true])
    func exifBox(byteOrder: TIFFByteOrder, exifHeader: Bool) {
        let metadata = MetadataReader.read(
            bytes: JXLFixture(exif: Sample.exif(byteOrder), exifHasHeader: exifHeader).make())
        #expect(metadata.format == .jxl)
        #expect(metadata.descriptions == Sample.candidates())
        Sample.expectExifFacts(metadata)
    }

    @Test("xml box, and both boxes before or after the codestream", arguments: [false, true])
    func xmlBox(metadataLast: Bool) {
        let xmpOnly = MetadataReader.read(bytes: JXLFixture(xmp: Sample.xmp, metadataLast: metadataLast).make())
        #expect(xmpOnly.descriptions == Sample.candidates(exif: false, xmp: true))
        let both = JXLFixture(exif: Sample.exif(.bigEndian), xmp: Sample.xmp, metadataLast: metadataLast)
        let metadata = MetadataReader.read(bytes: both.make())
        #expect(metadata.descriptions == Sample.candidates(xmp: true))
        Sample.expectExifFacts(metadata)
    }

    @Test("a bare codestream (FF 0A) has no boxes and so no metadata")
    func bareCodestream() {
        let container = JXLFixture().make()
        guard let start = Sample.offset(of: "jxlc", in: container) else {
            Issue.record("no jxlc box")
            return
        }
        let codestream = Array(container[(start + 4)...])
        #expect(codestream.prefix(2) == [0xFF, 0x0A])
        #expect(MetadataReader.read(bytes: codestream) == ImageMetadata(format: .jxl))
    }

    @Test("an Exif box whose TIFF offset points past the box")
    func tiffOffsetOutside() {
        let bytes = JXLFixture(exif: Sample.exif(.littleEndian), xmp: Sample.xmp).make()
        guard let type = Sample.offset(of: "Exif", in: bytes) else {
            Issue.record("no Exif box")
            return
        }
        for offset: [UInt8] in [[0, 0, 0x10, 0], [0xFF, 0xFF, 0xFF, 0xFC]] {
            // As for HEIF: never read outside the box; finding the TIFF header right after the offset is allowed.
            let metadata = MetadataReader.read(bytes: Sample.patching(bytes, at: type + 4, with: offset))
            Sample.expectAbsentOrExact(metadata.descriptions.exif, Sample.bytes(Sample.exifText))
            #expect(metadata.descriptions.xmp == Sample.bytes(Sample.xmpText))
            let unmarked = Sample.patching(bytes, at: type + 4, with: offset + [0x58, 0x58])
            #expect(MetadataReader.read(bytes: unmarked).descriptions == Sample.candidates(exif: false, xmp: true))
        }
    }

    @Test("an Exif box claiming more bytes than the file has", arguments: [false, true])
    func boxPastEnd(metadataLast: Bool) {
        let bytes = JXLFixture(exif: Sample.exif(.littleEndian), metadataLast: metadataLast).make()
        guard let type = Sample.offset(of: "Exif", in: bytes) else {
            Issue.record("no Exif box")
            return
        }
        let metadata = MetadataReader.read(bytes: Sample.patching(bytes, at: type - 4, with: [0x7F, 0xFF, 0xFF, 0xFF]))
        #expect(metadata.format == .jxl)
        Sample.expectAbsentOrExact(metadata.descriptions.exif, Sample.bytes(Sample.exifText))
    }

    @Test("box sizes the walk cannot use: 0 mid-file, 1 with a nonsense largesize, less than the header", arguments: [
        [0, 0, 0, 0], [0, 0, 0, 1], [0, 0, 0, 3],
    ] as [[UInt8]])
    func brokenBoxSize(size: [UInt8]) {
        // The ftyp box right after the signature gets the broken size; the Exif box behind it may be lost.
        var bytes = JXLFixture(exif: Sample.exif(.littleEndian), xmp: Sample.xmp).make()
        bytes = Sample.patching(bytes, at: JXLFixture.signature.count, with: size)
        let metadata = MetadataReader.read(bytes: bytes)
        #expect(metadata.format == .jxl)
        Sample.expectAbsentOrExact(metadata.descriptions.exif, Sample.bytes(Sample.exifText))
        Sample.expectAbsentOrExact(metadata.descriptions.xmp, Sample.bytes(Sample.xmpText))
    }

    @Test("every prefix of a JPEG XL file with Exif and XMP", arguments: [false, true])
    func truncation(metadataLast: Bool) {
        let jxl = JXLFixture(
            exif: Sample.exif(.littleEndian), exifHasHeader: true, xmp: Sample.xmp, metadataLast: metadataLast)
        Sample.expectPrefixesNeverLie(jxl.make(), expected: Sample.candidates(xmp: true))
    }
}
