import Metadata
import PhotoTestSupport
import Testing

@Suite("PNG: eXIf, raw profiles and iTXt XMP", .timeLimit(.minutes(1)))
struct PNGContainerTests {
    static let placements: [PNGFixture.ExifPlacement] = [.beforeImageData, .afterImageData]

    @Test("eXIf before or after IDAT", arguments: TIFFByteOrder.allCases, placements)
    func exifChunk(byteOrder: TIFFByteOrder, placement: PNGFixture.ExifPlacement) {
        let metadata = MetadataReader.read(bytes: PNGFixture(exif: Sample.exif(byteOrder), exifChunk: placement).make())
        #expect(metadata.format == .png)
        #expect(metadata.descriptions == Sample.candidates())
        Sample.expectExifFacts(metadata)
    }

    @Test(
        "ImageMagick's legacy raw profile in tEXt or zTXt, with or without Exif\\0\\0 in the hex",
        arguments: [PNGFixture.RawProfile.text, .compressedText], [true, false])
    func rawProfile(kind: PNGFixture.RawProfile, exifHeader: Bool) {
        for byteOrder in TIFFByteOrder.allCases {
            let png = PNGFixture(
                exif: Sample.exif(byteOrder), exifChunk: nil, rawProfile: kind, rawProfileHasExifHeader: exifHeader)
            let metadata = MetadataReader.read(bytes: png.make())
            #expect(metadata.descriptions == Sample.candidates())
            Sample.expectExifFacts(metadata)
        }
    }

    @Test("iTXt XML:com.adobe.xmp, alone and next to eXIf")
    func xmp() {
        let xmpOnly = MetadataReader.read(bytes: PNGFixture(xmp: Sample.xmp).make())
        #expect(xmpOnly.descriptions == Sample.candidates(exif: false, xmp: true))
        let both = MetadataReader.read(bytes: PNGFixture(exif: Sample.exif(.bigEndian), xmp: Sample.xmp).make())
        #expect(both.descriptions == Sample.candidates(xmp: true))
    }

    @Test("a text chunk with another keyword is not a raw profile")
    func otherKeyword() {
        let png = PNGFixture(
            exif: Sample.exif(.littleEndian), exifChunk: nil, rawProfile: .text, rawProfileKeyword: "Comment")
        let metadata = MetadataReader.read(bytes: png.make())
        #expect(metadata.format == .png)
        #expect(metadata.descriptions == DescriptionCandidates())
    }

    @Test("a chunk length of 0xFFFFFFFF before or after eXIf", arguments: [true, false])
    func hugeChunkLength(beforeExif: Bool) {
        let png = PNGFixture(exif: Sample.exif(.littleEndian), xmp: Sample.xmp).make()
        // A chunk header claiming 4 GiB of data, with nothing behind it but the rest of the file.
        let bogus: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF] + Array("teST".utf8)
        let at = beforeExif ? PNGFixture.endOfHeader : Sample.offset(of: "IDAT", in: png).map { $0 - 4 } ?? 0
        let metadata = MetadataReader.read(bytes: Array(png[..<at]) + bogus + png[at...])
        #expect(metadata.format == .png)
        if beforeExif {
            Sample.expectAbsentOrExact(metadata.descriptions.exif, Sample.bytes(Sample.exifText))
            Sample.expectAbsentOrExact(metadata.descriptions.xmp, Sample.bytes(Sample.xmpText))
        } else {
            #expect(metadata.descriptions == Sample.candidates(xmp: true))
        }
    }

    @Test("a zTXt raw profile whose zlib stream is corrupt gives no description")
    func corruptCompressedProfile() {
        let png = PNGFixture(exif: Sample.exif(.littleEndian), exifChunk: nil, rawProfile: .compressedText).make()
        guard let start = Sample.offset(of: "zTXt", in: png) else {
            Issue.record("no zTXt chunk")
            return
        }
        // Type, keyword and NUL, method byte, zlib header, stored-block header, then "\nexif\n     166\n" and hex.
        let hexStart = start + 4 + 22 + 1 + 2 + 5 + 15
        var damaged = png
        for index in hexStart..<(hexStart + 40) { damaged[index] ^= 0x5A }
        let metadata = MetadataReader.read(bytes: damaged)
        #expect(metadata.format == .png)
        #expect(metadata.descriptions.exif == nil)  // the Adler-32 no longer matches; at best the TIFF is garbage
    }

    @Test("a raw profile whose declared length exceeds its hex digits")
    func shortRawProfile() {
        let text = Array("\nexif\n    9999\n457869660000".utf8)
        let chunk = PNGFixture.chunk("tEXt", Array("Raw profile type exif\0".utf8) + text)
        let bytes = PNGFixture(width: 1, height: 1).make()
        let spliced = Array(bytes[..<PNGFixture.endOfHeader]) + chunk + bytes[PNGFixture.endOfHeader...]
        let metadata = MetadataReader.read(bytes: spliced)
        #expect(metadata.format == .png)
        #expect(metadata.descriptions == DescriptionCandidates())
    }

    @Test("every prefix of a PNG with eXIf, a raw profile and XMP", arguments: TIFFByteOrder.allCases)
    func truncation(byteOrder: TIFFByteOrder) {
        let png = PNGFixture(exif: Sample.exif(byteOrder), rawProfile: .compressedText, xmp: Sample.xmp).make()
        Sample.expectPrefixesNeverLie(png, expected: Sample.candidates(xmp: true))
    }

    @Test("the fixture's chunks carry real CRCs: IEND is always AE 42 60 82")
    func fixtureCRC() {
        #expect(PNGFixture.chunk("IEND", []) == [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82])
    }
}
