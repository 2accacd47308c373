import Metadata
import PhotoTestSupport
import Testing

/// Canon CRW: XMP lives in the "CANON OPTIONAL DATA" trailer that DPP and ExifTool append.
@Suite("Canon CRW: XMP in the recipe trailer")
struct CRWContainerTests {
    private static let signature = Array("CANON OPTIONAL DATA".utf8) + [0]

    private static func be32(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// A CIFF header and a tiny heap (no records), then the trailer with `blocks` (type, payload).
    static func crw(blocks: [(UInt32, [UInt8])]) -> [UInt8] {
        var bytes: [UInt8] = [0x49, 0x49, 26, 0, 0, 0] + Array("HEAPCCDR".utf8) + [2, 0, 1, 0] + [UInt8](repeating: 0, count: 8)
        bytes += [0, 0, 0, 0, 0, 0]  // the heap: zero records, then its table offset
        let body = blocks.flatMap { be32(Int($0.0)) + be32($0.1.count) + $0.1 }
        bytes += signature + [0, 1, 0, 0] + be32(body.count) + body
        bytes += signature + be32(body.count) + [UInt8](repeating: 0, count: 64 - signature.count - 4)
        return bytes
    }

    private let packet = XMPFixture(description: "Kept in the trailer").packet()

    @Test("the XMP block is found among the recipe blocks")
    func xmpFromTrailer() {
        let bytes = Self.crw(blocks: [(0xFFFF_00F4, [1, 2, 3, 4]), (0xFFFF_00F6, packet)])
        let metadata = MetadataReader.read(bytes: bytes)
        #expect(metadata.format == .crw)
        #expect(metadata.descriptions.xmp == Array("Kept in the trailer".utf8))
        #expect(metadata.descriptions.exif == nil)
    }

    @Test("without a trailer, or with one whose lengths lie, a CRW has no metadata")
    func brokenTrailers() {
        let ciffOnly = Array(Self.crw(blocks: []).prefix(32))
        #expect(MetadataReader.read(bytes: ciffOnly) == ImageMetadata(format: .crw))
        var lying = Self.crw(blocks: [(0xFFFF_00F6, packet)])
        // The footer's blocks length points before the file's start.
        let footer = lying.count - 64 + Self.signature.count
        lying.replaceSubrange(footer..<(footer + 4), with: [0x7F, 0xFF, 0xFF, 0xFF])
        #expect(MetadataReader.read(bytes: lying) == ImageMetadata(format: .crw))
        // A block claiming more than the trailer holds ends the walk.
        var long = Self.crw(blocks: [(0xFFFF_00F6, packet)])
        let blockLength = 26 + 6 + Self.signature.count + 8 + 4
        long.replaceSubrange(blockLength..<(blockLength + 4), with: [0, 0x10, 0, 0])
        #expect(MetadataReader.read(bytes: long).descriptions.xmp == nil)
    }

    @Test("every prefix of a CRW with a trailer reads without a wrong value")
    func prefixes() {
        let bytes = Self.crw(blocks: [(0xFFFF_00F6, packet)])
        for length in 0...bytes.count {
            let xmp = MetadataReader.read(bytes: Array(bytes.prefix(length))).descriptions.xmp
            #expect(xmp == nil || xmp == Array("Kept in the trailer".utf8), "prefix \(length)")
        }
    }
}
