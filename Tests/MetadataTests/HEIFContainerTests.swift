import Metadata
import PhotoTestSupport
import Testing

@Suite("HEIF and AVIF: Exif and XMP items", .timeLimit(.minutes(1)))
struct HEIFContainerTests {
    private static func format(_ brand: HEIFFixture.Brand) -> ImageFormat {
        brand == .heic ? .heif : .avif
    }

    @Test(
        "Exif item with the TIFF header at offset 0 or 6 (after Exif\\0\\0)",
        arguments: HEIFFixture.Brand.allCases, [false, true])
    func exifItem(brand: HEIFFixture.Brand, exifHeader: Bool) {
        for byteOrder in TIFFByteOrder.allCases {
            let heif = HEIFFixture(brand: brand, exif: Sample.exif(byteOrder), exifHasHeader: exifHeader)
            let metadata = MetadataReader.read(bytes: heif.make())
            #expect(metadata.format == Self.format(brand))
            #expect(metadata.descriptions == Sample.candidates())
            Sample.expectExifFacts(metadata)
        }
    }

    @Test("XMP as a mime item of type application/rdf+xml, alone and with Exif", arguments: HEIFFixture.Brand.allCases)
    func xmpItem(brand: HEIFFixture.Brand) {
        let xmpOnly = MetadataReader.read(bytes: HEIFFixture(brand: brand, xmp: Sample.xmp).make())
        #expect(xmpOnly.descriptions == Sample.candidates(exif: false, xmp: true))
        let both = MetadataReader.read(
            bytes: HEIFFixture(brand: brand, exif: Sample.exif(.bigEndian), xmp: Sample.xmp).make())
        #expect(both.descriptions == Sample.candidates(xmp: true))
        Sample.expectExifFacts(both)
    }

    @Test(
        "items stored in idat (iloc version 1, construction method 1)",
        arguments: HEIFFixture.Brand.allCases, [false, true])
    func itemData(brand: HEIFFixture.Brand, exifHeader: Bool) {
        let heif = HEIFFixture(
            brand: brand, exif: Sample.exif(.littleEndian), exifHasHeader: exifHeader, xmp: Sample.xmp,
            construction: .itemData)
        let metadata = MetadataReader.read(bytes: heif.make())
        #expect(metadata.descriptions == Sample.candidates(xmp: true))
        Sample.expectExifFacts(metadata)
    }

    @Test("the Exif payload at the very end, after 100 KB of mdat, from memory and from a file")
    func exifAtEnd() throws {
        let bytes = HEIFFixture(exif: Sample.exif(.bigEndian), xmp: Sample.xmp, exifPadding: 100_000).make()
        for metadata in [MetadataReader.read(bytes: bytes), try Sample.readThroughFile(bytes)] {
            #expect(metadata.descriptions == Sample.candidates(xmp: true))
            Sample.expectExifFacts(metadata)
        }
    }

    @Test("an iloc extent running past the end of the file", arguments: [1, 10, 1000, 50_000])
    func extentPastEnd(missing: Int) throws {
        let heif = HEIFFixture(exif: Sample.exif(.littleEndian), exifPadding: 100_000)
        let payload = try #require(heif.exifPayload)
        let metadata = MetadataReader.read(bytes: Array(heif.make().dropLast(missing)))
        #expect(metadata.format == .heif)
        if missing >= payload.count {
            #expect(metadata.descriptions.exif == nil)
            #expect(metadata.taken == nil)
        } else {
            // Reading what is there (as for a JPEG APP1 cut short) or refusing the item are both fine.
            Sample.expectAbsentOrExact(metadata.descriptions.exif, Sample.bytes(Sample.exifText))
        }
    }

    @Test(
        "meta after mdat, with mdat's size as 32 bits or as a 64-bit largesize",
        arguments: [HEIFFixture.BoxSize.exact, .largeSize])
    func metaLast(mediaDataSize: HEIFFixture.BoxSize) {
        let heif = HEIFFixture(
            exif: Sample.exif(.littleEndian), xmp: Sample.xmp, metaLast: true, mediaDataSize: mediaDataSize)
        let metadata = MetadataReader.read(bytes: heif.make())
        #expect(metadata.descriptions == Sample.candidates(xmp: true))
        Sample.expectExifFacts(metadata)
    }

    @Test("legal size forms: meta with a largesize, mdat running to the end (size 0)")
    func legalSizeForms() {
        let heif = HEIFFixture(
            exif: Sample.exif(.littleEndian), xmp: Sample.xmp, mediaDataSize: .toEnd, metaSize: .largeSize)
        #expect(MetadataReader.read(bytes: heif.make()).descriptions == Sample.candidates(xmp: true))
    }

    // ISO 14496-12 allows size 0 on the last top-level box; libheif reads this file, ExifTool 12.57 does not.
    @Test("meta as the last box with size 0 (to the end of the file)")
    func metaToEnd() {
        let heif = HEIFFixture(exif: Sample.exif(.littleEndian), metaLast: true, metaSize: .toEnd)
        #expect(MetadataReader.read(bytes: heif.make()).descriptions == Sample.candidates())
    }

    @Test(
        "a meta box header that cannot be walked: size 0 mid-file, or smaller than its own header",
        arguments: [
            [0, 0, 0, 0], [0, 0, 0, 4], [0, 0, 0, 7],
            // size 1 with a 64-bit size of 8, 15 or beyond the file: less than the 16-byte header, or too big.
            [0, 0, 0, 1, 0x6D, 0x65, 0x74, 0x61, 0, 0, 0, 0, 0, 0, 0, 8],
            [0, 0, 0, 1, 0x6D, 0x65, 0x74, 0x61, 0, 0, 0, 0, 0, 0, 0, 15],
            [0, 0, 0, 1, 0x6D, 0x65, 0x74, 0x61, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
        ] as [[UInt8]])
    func brokenMetaSize(header: [UInt8]) {
        let bytes = HEIFFixture(exif: Sample.exif(.littleEndian), xmp: Sample.xmp).make()
        let metaStart = Int(bytes[3])  // ftyp is first and shorter than 256 bytes
        let metadata = MetadataReader.read(bytes: Sample.patching(bytes, at: metaStart, with: header))
        #expect(metadata.format == .heif)
        Sample.expectAbsentOrExact(metadata.descriptions.exif, Sample.bytes(Sample.exifText))
        Sample.expectAbsentOrExact(metadata.descriptions.xmp, Sample.bytes(Sample.xmpText))
    }

    @Test("an Exif payload whose 4-byte TIFF offset points outside the item")
    func tiffOffsetOutside() throws {
        let heif = HEIFFixture(exif: Sample.exif(.littleEndian), exifHasHeader: false)
        let bytes = heif.make()
        let payload = try #require(heif.exifPayload)
        // The payload is the file's last bytes; its first four are the offset.
        let start = bytes.count - payload.count
        for offset: [UInt8] in [[0, 0, 0x10, 0], [0xFF, 0xFF, 0xFF, 0xF0], [0, 0, 0, UInt8(payload.count - 4)]] {
            // Nothing may be read from outside the item; looking for the TIFF header where writers that get
            // the offset wrong put it (right after the offset, or after "Exif\0\0") is allowed.
            let metadata = MetadataReader.read(bytes: Sample.patching(bytes, at: start, with: offset))
            Sample.expectAbsentOrExact(metadata.descriptions.exif, Sample.bytes(Sample.exifText))
            // With the TIFF header's byte order mark gone too, there is nothing left to find.
            let unmarked = Sample.patching(bytes, at: start, with: offset + [0x58, 0x58])
            #expect(MetadataReader.read(bytes: unmarked).descriptions.exif == nil)
        }
    }

    @Test(
        "every prefix of a HEIC and an AVIF with Exif and XMP",
        arguments: HEIFFixture.Brand.allCases, HEIFFixture.Construction.allCases)
    func truncation(brand: HEIFFixture.Brand, construction: HEIFFixture.Construction) {
        let heif = HEIFFixture(brand: brand, exif: Sample.exif(.bigEndian), xmp: Sample.xmp, construction: construction)
        Sample.expectPrefixesNeverLie(heif.make(), expected: Sample.candidates(xmp: true))
    }
}
