import Metadata
import PhotoTestSupport
import Testing

@Suite("JPEG: APP1 Exif, APP1 XMP and APP13 IPTC side by side", .timeLimit(.minutes(1)))
struct JPEGSourcesTests {
    @Test("all three sources at once", arguments: TIFFByteOrder.allCases)
    func allSources(byteOrder: TIFFByteOrder) {
        let bytes = JPEGFixture.make(exif: Sample.exif(byteOrder), xmp: Sample.xmp, iptc: Sample.iptc)
        let metadata = MetadataReader.read(bytes: bytes)
        #expect(metadata.format == .jpeg)
        #expect(metadata.descriptions == Sample.candidates(xmp: true, iptc: true))
        Sample.expectExifFacts(metadata)
        #expect(metadata.width == 8)
    }

    @Test("each source alone leaves the others nil")
    func eachAlone() {
        let exifOnly = MetadataReader.read(bytes: JPEGFixture.make(exif: Sample.exif(.littleEndian)))
        #expect(exifOnly.descriptions == Sample.candidates())
        let xmpOnly = MetadataReader.read(bytes: JPEGFixture.make(exif: nil, xmp: Sample.xmp))
        #expect(xmpOnly.descriptions == Sample.candidates(exif: false, xmp: true))
        #expect(xmpOnly.taken == nil)
        let iptcOnly = MetadataReader.read(bytes: JPEGFixture.make(exif: nil, iptc: Sample.iptc))
        #expect(iptcOnly.descriptions == Sample.candidates(exif: false, iptc: true))
    }

    @Test("XMP and IPTC segments before the Exif APP1")
    func reversedOrder() {
        let xmp = JPEGBytes.segment(0xE1, payload: Array(JPEGFixture.xmpSignature.utf8) + [0] + Sample.xmp)
        let iptc = JPEGBytes.segment(0xED, payload: IPTCFixture.photoshopAPP13Payload(iim: Sample.iptc))
        let exif = JPEGBytes.segment(0xE1, payload: Array("Exif".utf8) + [0, 0] + Sample.exif(.bigEndian).tiffBlock())
        let bytes = JPEGBytes.inserting([iptc, xmp, exif], into: JPEGFixture.make(exif: nil))
        let metadata = MetadataReader.read(bytes: bytes)
        #expect(metadata.descriptions == Sample.candidates(xmp: true, iptc: true))
        Sample.expectExifFacts(metadata)
    }

    @Test("an APP1 whose namespace is not the XMP one is not XMP")
    func otherNamespace() {
        let segment = JPEGBytes.segment(0xE1, payload: Array("http://ns.example.com/xap/1.0/".utf8) + [0] + Sample.xmp)
        let bytes = JPEGBytes.inserting([segment], into: JPEGFixture.make(exif: nil))
        #expect(MetadataReader.read(bytes: bytes).descriptions == DescriptionCandidates())
    }

    @Test("every prefix of a JPEG with all three sources", arguments: TIFFByteOrder.allCases)
    func truncation(byteOrder: TIFFByteOrder) {
        let bytes = JPEGFixture.make(exif: Sample.exif(byteOrder), xmp: Sample.xmp, iptc: Sample.iptc)
        Sample.expectPrefixesNeverLie(bytes, expected: Sample.candidates(xmp: true, iptc: true))
    }
}
