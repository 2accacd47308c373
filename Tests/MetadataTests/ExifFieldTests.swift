import Metadata
import PhotoTestSupport
import Testing

@Suite("EXIF fields from JPEG fixtures")
struct ExifFieldTests {
    @Test("every field is read in both byte orders", arguments: TIFFByteOrder.allCases)
    func allFields(byteOrder: TIFFByteOrder) {
        let exif = ExifFixture(
            description: "Summer at the lake",
            dateTimeOriginal: "2021:05:01 10:00:00",
            offsetTimeOriginal: "+02:00",
            orientation: 6,
            make: "Canon   ",
            model: "EOS 5D  ",
            pixelXDimension: 4000,
            pixelYDimension: 3000,
            byteOrder: byteOrder
        )
        let metadata = MetadataReader.read(bytes: JPEGFixture.make(exif: exif, width: 640, height: 480))
        let expected = ImageMetadata(
            format: .jpeg,
            descriptions: DescriptionCandidates(exif: Array("Summer at the lake".utf8)),
            taken: "2021-05-01T10:00:00+02:00",
            width: 640,
            height: 480,
            orientation: 6,
            make: Array("Canon".utf8),
            model: Array("EOS 5D".utf8)
        )
        #expect(metadata == expected)
    }

    @Test("the fixture writes the TIFF header for its byte order", arguments: TIFFByteOrder.allCases)
    func tiffHeader(byteOrder: TIFFByteOrder) {
        let block = ExifFixture(description: "x", byteOrder: byteOrder).tiffBlock()
        let expected: [UInt8] =
            byteOrder == .littleEndian
            ? [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00] : [0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08]
        #expect(Array(block.prefix(8)) == expected)
    }

    @Test("taken has no offset when OffsetTimeOriginal is absent", arguments: TIFFByteOrder.allCases)
    func takenWithoutOffset(byteOrder: TIFFByteOrder) {
        let exif = ExifFixture(dateTimeOriginal: "1999:12:31 23:59:59", byteOrder: byteOrder)
        #expect(MetadataReader.read(bytes: JPEGFixture.make(exif: exif)).taken == "1999-12-31T23:59:59")
    }

    @Test(
        "offsets: valid ones are appended, invalid ones dropped",
        arguments: [
            ("+02:00", "2021-05-01T10:00:00+02:00"),
            ("-05:30", "2021-05-01T10:00:00-05:30"),
            ("+00:00", "2021-05-01T10:00:00+00:00"),
            ("+14:00", "2021-05-01T10:00:00+14:00"),
            ("+2:00", "2021-05-01T10:00:00"),
            ("02:00", "2021-05-01T10:00:00"),
            ("+15:00", "2021-05-01T10:00:00"),
            ("+02:60", "2021-05-01T10:00:00"),
            ("   :  ", "2021-05-01T10:00:00"),
            ("", "2021-05-01T10:00:00"),
        ])
    func offsets(offset: String, expected: String) {
        let exif = ExifFixture(dateTimeOriginal: "2021:05:01 10:00:00", offsetTimeOriginal: offset)
        #expect(MetadataReader.read(bytes: JPEGFixture.make(exif: exif)).taken == expected)
    }

    @Test(
        "dates that are not real dates give no taken",
        arguments: [
            "0000:00:00 00:00:00", "    :  :     :  :  ", "2021:13:01 10:00:00", "2021:02:29 10:00:00",
            "2021:04:31 10:00:00", "2021:05:01 24:00:00", "2021:05:01 10:60:00", "2021:05:01 10:00:61",
            "2021:05:01", "2021:05:01 10:00:00:00", "2021-05:01 10:00:00", "20210501 100000", "",
            "2021:05:0a 10:00:00",
        ])
    func invalidDates(date: String) {
        let exif = ExifFixture(dateTimeOriginal: date, offsetTimeOriginal: "+01:00")
        #expect(MetadataReader.read(bytes: JPEGFixture.make(exif: exif)).taken == nil)
    }

    @Test(
        "near-miss dates that are still real",
        arguments: [
            ("2024:02:29 00:00:00", "2024-02-29T00:00:00"),
            ("2000:02:29 12:00:00", "2000-02-29T12:00:00"),
            ("2021-05-01 10:00:00", "2021-05-01T10:00:00"),
            ("2021:05:01 10:00:00  ", "2021-05-01T10:00:00"),
        ])
    func realDates(date: String, expected: String) {
        let exif = ExifFixture(dateTimeOriginal: date)
        #expect(MetadataReader.read(bytes: JPEGFixture.make(exif: exif)).taken == expected)
    }

    @Test("orientation is kept only when it is 1...8", arguments: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 255, 65535])
    func orientation(value: Int) {
        for byteOrder in TIFFByteOrder.allCases {
            let exif = ExifFixture(orientation: UInt16(value), byteOrder: byteOrder)
            let expected: Int? = (1...8).contains(value) ? value : nil
            #expect(MetadataReader.read(bytes: JPEGFixture.make(exif: exif)).orientation == expected)
        }
    }

    @Test("make and model lose trailing spaces, keep inner ones, and vanish when blank")
    func makeAndModel() {
        let exif = ExifFixture(make: "  NIKON CORPORATION  ", model: "    ")
        let metadata = MetadataReader.read(bytes: JPEGFixture.make(exif: exif))
        #expect(metadata.make == Array("  NIKON CORPORATION".utf8))
        #expect(metadata.model == nil)
        #expect(MetadataReader.read(bytes: JPEGFixture.make(exif: ExifFixture(make: ""))).make == nil)
    }

    @Test("width and height come from the frame header before EXIF", arguments: TIFFByteOrder.allCases)
    func sizeFromFrameHeader(byteOrder: TIFFByteOrder) {
        let exif = ExifFixture(pixelXDimension: 4000, pixelYDimension: 3000, byteOrder: byteOrder)
        let metadata = MetadataReader.read(bytes: JPEGFixture.make(exif: exif, width: 1234, height: 65535))
        #expect(metadata.width == 1234)
        #expect(metadata.height == 65535)
    }

    @Test("without a frame header, EXIF PixelX/YDimension give the size", arguments: TIFFByteOrder.allCases)
    func sizeFromExif(byteOrder: TIFFByteOrder) {
        let exif = ExifFixture(pixelXDimension: 100_000, pixelYDimension: 3, byteOrder: byteOrder)
        let metadata = MetadataReader.read(bytes: JPEGBytes.withoutFrame(exif))
        #expect(metadata.width == 100_000)
        #expect(metadata.height == 3)
    }

    @Test("a JPEG without EXIF still has format and size, and nothing else")
    func noExif() {
        let metadata = MetadataReader.read(bytes: JPEGFixture.make(exif: nil, width: 16, height: 9))
        #expect(metadata == ImageMetadata(format: .jpeg, width: 16, height: 9))
    }

    @Test("EXIF in a second APP1 is ignored when the first one is EXIF too")
    func firstExifWins() {
        let secondBlock = ExifFixture(description: "second").tiffBlock()
        let second = JPEGBytes.segment(0xE1, payload: Array("Exif".utf8) + [0, 0] + secondBlock)
        let jpeg = JPEGFixture.make(exif: ExifFixture(description: "first"))
        let end = JPEGBytes.endOfFirstAPP1(jpeg)
        let bytes = Array(jpeg[..<end]) + second + jpeg[end...]
        #expect(MetadataReader.read(bytes: bytes).descriptions.exif == Array("first".utf8))
    }

    @Test("an XMP APP1 before the EXIF APP1 is skipped")
    func xmpBeforeExif() {
        let xmp = JPEGBytes.segment(0xE1, payload: Array("http://ns.adobe.com/xap/1.0/\0<x:xmpmeta/>".utf8))
        let bytes = JPEGBytes.inserting([xmp], into: JPEGFixture.make(exif: ExifFixture(description: "after xmp")))
        #expect(MetadataReader.read(bytes: bytes).descriptions.exif == Array("after xmp".utf8))
    }

    @Test("orientation stored as LONG or SLONG is accepted, as RATIONAL it is not", arguments: TIFFByteOrder.allCases)
    func orientationTypes(byteOrder: TIFFByteOrder) {
        let block = ExifFixture(orientation: 6, make: "M", byteOrder: byteOrder).tiffBlock()
        let six: [UInt8] = byteOrder == .littleEndian ? [6, 0, 0, 0] : [0, 0, 0, 6]
        for (type, expected) in [(UInt16(4), 6), (9, 6), (5, nil)] as [(UInt16, Int?)] {
            let patched = TIFFBytes.patchingIFD0Entry(block, tag: 0x0112, type: type, value: six, byteOrder: byteOrder)
            #expect(MetadataReader.read(bytes: TIFFBytes.jpeg(around: patched)).orientation == expected, "type \(type)")
        }
    }

    @Test("text tags are read as ASCII, UNDEFINED or BYTE, and not as SHORT", arguments: TIFFByteOrder.allCases)
    func textTypes(byteOrder: TIFFByteOrder) {
        let block = ExifFixture(description: "Words", make: "Maker", byteOrder: byteOrder).tiffBlock()
        for (type, expected) in [(UInt16(2), "Words"), (7, "Words"), (1, "Words"), (3, nil)] as [(UInt16, String?)] {
            let patched = TIFFBytes.patchingIFD0Entry(block, tag: 0x010E, type: type, byteOrder: byteOrder)
            let metadata = MetadataReader.read(bytes: TIFFBytes.jpeg(around: patched))
            #expect(metadata.descriptions.exif == expected.map { Array($0.utf8) }, "type \(type)")
            #expect(metadata.make == Array("Maker".utf8))
        }
    }
}
