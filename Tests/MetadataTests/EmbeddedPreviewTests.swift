import Metadata
import PhotoTestSupport
import Testing

@Suite("Embedded previews: the EXIF IFD1 thumbnail, found without decoding", .timeLimit(.minutes(1)))
struct EmbeddedPreviewTests {
    static let thumbnail = JPEGFixture.make(exif: nil, width: 160, height: 120)

    @Test("the IFD1 JPEG comes back byte for byte with its own size", arguments: TIFFByteOrder.allCases)
    func ifd1Thumbnail(byteOrder: TIFFByteOrder) throws {
        let exif = ExifFixture(description: "Beach", orientation: 6, byteOrder: byteOrder, thumbnail: Self.thumbnail)
        let photo = JPEGFixture.make(exif: exif, width: 640, height: 480)
        let preview = try #require(EmbeddedPreviewReader.read(bytes: photo, covering: 256))
        #expect(preview.bytes == Self.thumbnail)
        #expect(preview.width == 160 && preview.height == 120)
        // The main image's metadata is untouched by the extra directory.
        #expect(MetadataReader.read(bytes: photo).orientation == 6)
    }

    @Test("no IFD1, no preview; other formats are left to the worker")
    func none() {
        #expect(EmbeddedPreviewReader.read(bytes: JPEGFixture.make(exif: ExifFixture(description: "x")), covering: 128) == nil)
        #expect(EmbeddedPreviewReader.read(bytes: JPEGFixture.make(exif: nil), covering: 128) == nil)
        #expect(EmbeddedPreviewReader.read(bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0, count: 64), covering: 128) == nil)
    }

    @Test("a thumbnail that is not a displayable JPEG is refused")
    func refusesBadThumbnails() {
        var notJPEG = Self.thumbnail
        notJPEG[0] = 0x00
        var lossless = Self.thumbnail
        // Turn its SOF0 into SOF3: how DNGs store sensor data, not a picture.
        if let sof = (2..<(lossless.count - 1)).first(where: { lossless[$0] == 0xFF && lossless[$0 + 1] == 0xC0 }) {
            lossless[sof + 1] = 0xC3
        }
        for bad in [notJPEG, lossless, Array(Self.thumbnail.prefix(3))] {
            let photo = JPEGFixture.make(exif: ExifFixture(description: "x", thumbnail: bad))
            #expect(EmbeddedPreviewReader.read(bytes: photo, covering: 128) == nil)
        }
    }

    @Test("a pointer or length past the block finds nothing, and every truncation is safe")
    func truncated() {
        let photo = JPEGFixture.make(exif: ExifFixture(description: "x", thumbnail: Self.thumbnail))
        // Cut anywhere inside the EXIF segment: never a crash, and never a partial JPEG.
        for length in stride(from: 0, to: photo.count, by: 7) {
            if let preview = EmbeddedPreviewReader.read(bytes: Array(photo.prefix(length)), covering: 128) {
                #expect(preview.bytes == Self.thumbnail)
            }
        }
    }
}
