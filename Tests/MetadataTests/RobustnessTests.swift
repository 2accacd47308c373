import Metadata
import PhotoTestSupport
import Testing

@Suite("Garbage in, no crash and no hang", .timeLimit(.minutes(1)))
struct RobustnessTests {
    static let fixture = JPEGFixture.make(
        exif: ExifFixture(
            description: "Truncation target", dateTimeOriginal: "2020:01:02 03:04:05", orientation: 3, make: "Maker",
            pixelXDimension: 10, pixelYDimension: 20, byteOrder: .bigEndian),
        width: 320, height: 240)

    @Test("tiny inputs", arguments: [[], [0x00], [0xFF], [0xFF, 0xD8], [0xFF, 0xD8, 0xFF], [0xFF, 0xD8, 0xFF, 0xE1]])
    func tiny(bytes: [UInt8]) {
        let metadata = MetadataReader.read(bytes: bytes)
        #expect(metadata.descriptions.exif == nil)
        #expect(metadata.format == (bytes.count >= 3 ? .jpeg : nil))
    }

    @Test("every prefix of a valid JPEG; prefixes that keep APP1 whole keep the description")
    func everyTruncation() {
        let app1End = JPEGBytes.endOfFirstAPP1(Self.fixture)
        for length in 0...Self.fixture.count {
            let metadata = MetadataReader.read(bytes: Array(Self.fixture.prefix(length)))
            #expect(metadata.format == (length >= 3 ? .jpeg : nil))
            if length >= app1End {
                #expect(metadata.descriptions.exif == Array("Truncation target".utf8), "prefix \(length)")
                #expect(metadata.orientation == 3, "prefix \(length)")
            }
        }
        #expect(MetadataReader.read(bytes: Self.fixture).width == 320)
    }

    @Test("random garbage, plain and behind JPEG and EXIF headers")
    func randomGarbage() {
        var random = SplitMix64(seed: 0x5EED)
        let prefixes: [[UInt8]] = [
            [], [0xFF, 0xD8, 0xFF], [0xFF, 0xD8, 0xFF, 0xE1, 0x01, 0x00] + Array("Exif".utf8) + [0, 0],
            [0xFF, 0xD8, 0xFF, 0xE1, 0x01, 0x00] + Array("Exif".utf8) + [0, 0, 0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0],
            [0xFF, 0xD8, 0xFF, 0xE1, 0x01, 0x00] + Array("Exif".utf8) + [0, 0, 0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8],
        ]
        var jpegs = 0
        for round in 0..<4000 {
            let prefix = prefixes[round % prefixes.count]
            let length = Int.random(in: 0...600, using: &random)
            let bytes = prefix + (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            if MetadataReader.read(bytes: bytes).format == .jpeg { jpegs += 1 }
        }
        #expect(jpegs >= 3200)  // the four JPEG prefixes really drove the JPEG and libexif paths
    }

    @Test("random byte flips in a valid JPEG")
    func mutations() {
        var random = SplitMix64(seed: 42)
        var described = 0
        for _ in 0..<3000 {
            var bytes = Self.fixture
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                bytes[Int.random(in: 2..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            if MetadataReader.read(bytes: bytes).descriptions.exif != nil { described += 1 }
        }
        #expect(described > 0)
    }

    @Test("an APP1 length that points past the end of the file")
    func app1PastEOF() {
        let payload = Array("Exif".utf8) + [0, 0] + ExifFixture(description: "cut off").tiffBlock()
        let bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF] + payload
        let metadata = MetadataReader.read(bytes: bytes)
        #expect(metadata.format == .jpeg)
        #expect(metadata.descriptions.exif == Array("cut off".utf8))
        #expect(metadata.width == nil)
    }

    @Test("segment lengths that cannot advance stop the walk", arguments: [0, 1])
    func lengthTooSmall(length: UInt8) {
        let bytes = JPEGBytes.inserting([[0xFF, 0xE2, 0x00, length]], into: JPEGFixture.make(exif: nil))
        #expect(MetadataReader.read(bytes: bytes) == ImageMetadata(format: .jpeg))
    }

    @Test("thousands of empty segments hit the walk limit")
    func segmentFlood() {
        let flood = [[UInt8]](repeating: [0xFF, 0xEE, 0x00, 0x02], count: 20_000)
        let bytes = JPEGBytes.inserting(flood, into: JPEGFixture.make(exif: ExifFixture(description: "late")))
        #expect(MetadataReader.read(bytes: bytes) == ImageMetadata(format: .jpeg))
    }

    @Test("a megabyte of fill bytes after SOI")
    func fillBytes() {
        let bytes: [UInt8] = [0xFF, 0xD8] + [UInt8](repeating: 0xFF, count: 1 << 20)
        #expect(MetadataReader.read(bytes: bytes) == ImageMetadata(format: .jpeg))
    }

    @Test("EXIF blocks whose IFD offsets point at themselves or past the end")
    func selfReferentialIFDs() {
        for byteOrder in TIFFByteOrder.allCases {
            var block = ExifFixture(description: "loop", dateTimeOriginal: "2020:01:01 00:00:00", byteOrder: byteOrder)
                .tiffBlock()
            // Point the Exif IFD pointer (last IFD0 entry's value) back at IFD0, then at nowhere.
            let entryCount = byteOrder == .littleEndian ? Int(block[8]) : Int(block[9])
            let pointer = 8 + 2 + 12 * (entryCount - 1) + 8
            for target: [UInt8] in [[0, 0, 0, 8], [0x7F, 0xFF, 0xFF, 0xFF]] {
                let value = byteOrder == .littleEndian ? target.reversed() : target
                block.replaceSubrange(pointer..<(pointer + 4), with: value)
                let segment = JPEGBytes.segment(0xE1, payload: Array("Exif".utf8) + [0, 0] + block)
                let bytes = JPEGBytes.inserting([segment], into: JPEGFixture.make(exif: nil))
                let metadata = MetadataReader.read(bytes: bytes)
                #expect(metadata.descriptions.exif == Array("loop".utf8))
                #expect(metadata.taken == nil)
            }
        }
    }
}
