import Metadata
import PhotoTestSupport
import Testing

@Suite("TIFF, BigTIFF and TIFF-based raws", .timeLimit(.minutes(1)))
struct TIFFContainerTests {
    static let variants: [TIFFFixture.Variant] = [.tiff, .bigTIFF]

    private func fixture(_ byteOrder: TIFFByteOrder, _ variant: TIFFFixture.Variant = .tiff) -> TIFFFixture {
        TIFFFixture(exif: Sample.exif(byteOrder), xmp: Sample.xmp, iptc: Sample.iptc, variant: variant)
    }

    @Test(
        "IFD0 ImageDescription, tag 700 XMP, tag 33723 IPTC and the Exif IFD",
        arguments: TIFFByteOrder.allCases, variants)
    func everySource(byteOrder: TIFFByteOrder, variant: TIFFFixture.Variant) {
        let metadata = MetadataReader.read(bytes: fixture(byteOrder, variant).make())
        #expect(metadata.format == (variant == .bigTIFF ? .bigtiff : .tiff))
        #expect(metadata.descriptions == Sample.candidates(xmp: true, iptc: true))
        Sample.expectExifFacts(metadata)
    }

    @Test("IFD0 at the end, after 100 KB of pixels", arguments: TIFFByteOrder.allCases, variants)
    func ifdAtEnd(byteOrder: TIFFByteOrder, variant: TIFFFixture.Variant) throws {
        var tiff = fixture(byteOrder, variant)
        tiff.placement = .ifdLast
        (tiff.width, tiff.height) = (320, 320)
        let bytes = tiff.make()
        #expect(bytes.count > 100_000)
        for metadata in [MetadataReader.read(bytes: bytes), try Sample.readThroughFile(bytes)] {
            #expect(metadata.descriptions == Sample.candidates(xmp: true, iptc: true))
            Sample.expectExifFacts(metadata)
        }
    }

    @Test("ORF (IIRO/MMOR) and RW2 (IIU\\0) headers are TIFF", arguments: [
        (TIFFFixture.Variant.orf, TIFFByteOrder.littleEndian), (.orf, .bigEndian), (.rw2, .littleEndian),
    ])
    func rawMagics(variant: TIFFFixture.Variant, byteOrder: TIFFByteOrder) {
        let metadata = MetadataReader.read(bytes: TIFFFixture(exif: Sample.exif(byteOrder), variant: variant).make())
        #expect(metadata.format == .tiff)
        Sample.expectExifFacts(metadata)
    }

    @Test("IPTC stored as LONGs, as Photoshop writes it, is still a byte stream", arguments: TIFFByteOrder.allCases)
    func iptcAsLongs(byteOrder: TIFFByteOrder) {
        // 1:90 + 2:00 + 2:05 + 2:120 of this caption is not a multiple of four, so zero padding follows it.
        let iptc = IPTCFixture(caption: Sample.bytes("Odd"), declaresUTF8: true).iim()
        #expect(iptc.count % 4 != 0)
        let bytes = TIFFFixture(exif: Sample.exif(byteOrder), iptc: iptc, iptcAsLongs: true).make()
        #expect(MetadataReader.read(bytes: bytes).descriptions.iptc == Sample.bytes("Odd"))
    }

    @Test("IPTC in a Latin-1 TIFF is converted to UTF-8", arguments: TIFFByteOrder.allCases)
    func iptcLatin1(byteOrder: TIFFByteOrder) {
        let iptc = IPTCFixture(caption: [0x43, 0x61, 0x66, 0xE9]).iim()
        let bytes = TIFFFixture(exif: ExifFixture(byteOrder: byteOrder), iptc: iptc).make()
        #expect(MetadataReader.read(bytes: bytes).descriptions.iptc == Sample.bytes("Café"))
    }

    @Test("no metadata tags at all: a plain TIFF with nothing to report", arguments: TIFFByteOrder.allCases, variants)
    func bare(byteOrder: TIFFByteOrder, variant: TIFFFixture.Variant) {
        let metadata = MetadataReader.read(
            bytes: TIFFFixture(exif: ExifFixture(byteOrder: byteOrder), variant: variant).make())
        #expect(metadata.format == (variant == .bigTIFF ? .bigtiff : .tiff))
        #expect(metadata.descriptions == DescriptionCandidates())
        #expect(metadata.taken == nil)
    }

    @Test(
        "IFD0's next-IFD pointing at itself and the Exif pointer at IFD0 end the walk",
        arguments: TIFFByteOrder.allCases, variants)
    func loops(byteOrder: TIFFByteOrder, variant: TIFFFixture.Variant) {
        var tiff = fixture(byteOrder, variant)
        tiff.nextIFD = .ifd0
        tiff.exifPointer = .ifd0
        let metadata = MetadataReader.read(bytes: tiff.make())
        #expect(metadata.descriptions == Sample.candidates(xmp: true, iptc: true))
        #expect(metadata.taken == nil)  // IFD0 has no DateTimeOriginal, however often it is visited
    }

    @Test(
        "an Exif IFD pointer or next-IFD past the end loses only what it points at",
        arguments: TIFFByteOrder.allCases, variants)
    func pointersPastEnd(byteOrder: TIFFByteOrder, variant: TIFFFixture.Variant) {
        var tiff = fixture(byteOrder, variant)
        tiff.exifPointer = .offset(0x7FFF_FFF0)
        tiff.nextIFD = .offset(0xFFFF_FFF0)
        let metadata = MetadataReader.read(bytes: tiff.make())
        #expect(metadata.descriptions == Sample.candidates(xmp: true, iptc: true))
        #expect(metadata.orientation == 6)
        #expect(metadata.taken == nil)
    }

    @Test("a first-IFD offset past the end gives the format and nothing else", arguments: TIFFByteOrder.allCases)
    func firstIFDPastEnd(byteOrder: TIFFByteOrder) {
        let bytes = fixture(byteOrder).make()
        let offset: [UInt8] = byteOrder == .littleEndian ? [0xF0, 0xFF, 0xFF, 0x7F] : [0x7F, 0xFF, 0xFF, 0xF0]
        let metadata = MetadataReader.read(bytes: Sample.patching(bytes, at: 4, with: offset))
        #expect(metadata == ImageMetadata(format: .tiff))
    }

    @Test("a BigTIFF offset above 4 GiB is not cut to 32 bits", arguments: TIFFByteOrder.allCases)
    func bigTIFFOffsetNotTruncated(byteOrder: TIFFByteOrder) {
        // 0x1_0000_0010 cut to 32 bits would be 16, exactly where IFD0 really is.
        let offset: [UInt8] = [0, 0, 0, 0x01, 0, 0, 0, 0x10]
        let bytes = Sample.patching(
            fixture(byteOrder, .bigTIFF).make(), at: 8, with: byteOrder == .bigEndian ? offset : offset.reversed())
        #expect(MetadataReader.read(bytes: bytes) == ImageMetadata(format: .bigtiff))
    }

    @Test("an IFD entry count far beyond the file", arguments: TIFFByteOrder.allCases)
    func hugeEntryCount(byteOrder: TIFFByteOrder) {
        let count: [UInt8] = [0xFF, 0xFF]
        let metadata = MetadataReader.read(bytes: Sample.patching(fixture(byteOrder).make(), at: 8, with: count))
        #expect(metadata.format == .tiff)
        Sample.expectAbsentOrExact(metadata.descriptions.exif, Sample.bytes(Sample.exifText))
    }

    @Test(
        "every prefix; once the IFDs are whole, missing pixels do not matter",
        arguments: TIFFByteOrder.allCases, variants)
    func truncation(byteOrder: TIFFByteOrder, variant: TIFFFixture.Variant) {
        let tiff = fixture(byteOrder, variant)
        let bytes = tiff.make()
        Sample.expectPrefixesNeverLie(bytes, expected: Sample.candidates(xmp: true, iptc: true))
        // With the IFDs first, the pixel strip is the last width x height bytes.
        let metadata = MetadataReader.read(bytes: Array(bytes.dropLast(tiff.width * tiff.height)))
        #expect(metadata.descriptions == Sample.candidates(xmp: true, iptc: true))
        Sample.expectExifFacts(metadata)
    }
}
