import Metadata
import PhotoTestSupport
import Testing

@Suite("Canon CR3: CMT1 and CMT2 in moov's Canon uuid box", .timeLimit(.minutes(1)))
struct CR3ContainerTests {
    @Test("IFD0 facts from CMT1, the date from CMT2", arguments: TIFFByteOrder.allCases)
    func metadataBoxes(byteOrder: TIFFByteOrder) {
        let metadata = MetadataReader.read(bytes: CR3Fixture(exif: Sample.exif(byteOrder)).make())
        #expect(metadata.format == .cr3)
        #expect(metadata.descriptions == Sample.candidates())
        Sample.expectExifFacts(metadata)
    }

    @Test("without a date, CMT2 holds an empty IFD and taken is nil")
    func noDate() {
        let exif = ExifFixture(description: Sample.exifText, orientation: 3, make: "Canon")
        let metadata = MetadataReader.read(bytes: CR3Fixture(exif: exif).make())
        #expect(metadata.descriptions == Sample.candidates())
        #expect(metadata.orientation == 3)
        #expect(metadata.taken == nil)
    }

    @Test("CMT boxes inside a uuid box with another uuid are not Canon's")
    func otherUUID() {
        let bytes = CR3Fixture(exif: Sample.exif(.littleEndian)).make()
        guard let uuid = Sample.offset(of: "uuid", in: bytes) else {
            Issue.record("no uuid box")
            return
        }
        let metadata = MetadataReader.read(bytes: Sample.patching(bytes, at: uuid + 4, with: [0x00]))
        #expect(metadata.format == .cr3)
        #expect(metadata.descriptions == DescriptionCandidates())
        #expect(metadata.taken == nil)
    }

    @Test("a moov size past the end of the file, or smaller than its header", arguments: [
        [0x7F, 0xFF, 0xFF, 0xFF], [0, 0, 0, 4], [0, 0, 0, 0],
    ] as [[UInt8]])
    func brokenMoovSize(size: [UInt8]) {
        let bytes = CR3Fixture(exif: Sample.exif(.bigEndian)).make()
        guard let moov = Sample.offset(of: "moov", in: bytes) else {
            Issue.record("no moov box")
            return
        }
        let metadata = MetadataReader.read(bytes: Sample.patching(bytes, at: moov - 4, with: size))
        #expect(metadata.format == .cr3)
        Sample.expectAbsentOrExact(metadata.descriptions.exif, Sample.bytes(Sample.exifText))
    }

    @Test("every prefix of a CR3", arguments: TIFFByteOrder.allCases)
    func truncation(byteOrder: TIFFByteOrder) {
        Sample.expectPrefixesNeverLie(CR3Fixture(exif: Sample.exif(byteOrder)).make(), expected: Sample.candidates())
    }
}
