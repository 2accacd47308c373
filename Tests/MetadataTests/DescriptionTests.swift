import Metadata
import PhotoTestSupport
import Testing

@Suite("ImageDescription bytes")
struct DescriptionTests {
    private func description(_ bytes: [UInt8]?, _ byteOrder: TIFFByteOrder) -> ImageMetadata {
        MetadataReader.read(
            bytes: JPEGFixture.make(exif: ExifFixture(description: bytes, make: "Make", byteOrder: byteOrder)))
    }

    @Test("bytes after an embedded NUL are dropped", arguments: TIFFByteOrder.allCases)
    func embeddedNUL(byteOrder: TIFFByteOrder) {
        let metadata = description(Array("ICM107B".utf8) + [0] + Array("garbage".utf8), byteOrder)
        #expect(metadata.descriptions.exif == Array("ICM107B".utf8))
    }

    @Test("an all-NUL or empty value is an empty description, not a missing one", arguments: TIFFByteOrder.allCases)
    func allNUL(byteOrder: TIFFByteOrder) {
        for bytes in [[UInt8](repeating: 0, count: 32), [0], [0, 0, 0], []] {
            let metadata = description(bytes, byteOrder)
            #expect(metadata.descriptions.exif == [])
        }
    }

    @Test("an absent tag is nil, with no source", arguments: TIFFByteOrder.allCases)
    func absent(byteOrder: TIFFByteOrder) {
        let metadata = description(nil, byteOrder)
        #expect(metadata.descriptions.exif == nil)
        #expect(metadata.make == Array("Make".utf8))  // the EXIF block itself was read
    }

    @Test("Latin-1 bytes are passed through raw", arguments: TIFFByteOrder.allCases)
    func latin1(byteOrder: TIFFByteOrder) {
        let cafe: [UInt8] = [0x43, 0x61, 0x66, 0xE9]
        #expect(description(cafe, byteOrder).descriptions.exif == cafe)
    }

    @Test("UTF-8 text and spaces are kept exactly", arguments: TIFFByteOrder.allCases)
    func utf8(byteOrder: TIFFByteOrder) {
        let text = "  Porträtt på Eva\n   "
        let metadata = MetadataReader.read(
            bytes: JPEGFixture.make(exif: ExifFixture(description: text, byteOrder: byteOrder)))
        #expect(metadata.descriptions.exif == Array(text.utf8))
    }

    @Test("short values stored inside the IFD entry are read", arguments: TIFFByteOrder.allCases)
    func inline(byteOrder: TIFFByteOrder) {
        #expect(description(Array("abc".utf8), byteOrder).descriptions.exif == Array("abc".utf8))
        #expect(description(Array("a".utf8), byteOrder).descriptions.exif == Array("a".utf8))
    }

    @Test("a 5,000-byte description is read whole", arguments: TIFFByteOrder.allCases)
    func long(byteOrder: TIFFByteOrder) {
        let bytes = (0..<5000).map { UInt8(0x21 + $0 % 90) }
        #expect(description(bytes, byteOrder).descriptions.exif == bytes)
    }
}
