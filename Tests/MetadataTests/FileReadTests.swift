import Foundation
import Metadata
import PhotoTestSupport
import Testing

@Suite("Reading from a file descriptor")
struct FileReadTests {
    static let description = [UInt8]((0..<5000).map { UInt8(0x41 + $0 % 26) })
    static let exif = ExifFixture(
        description: description, dateTimeOriginal: "2022:06:07 08:09:10", offsetTimeOriginal: "-03:00",
        orientation: 8, make: "Fuji ", model: "X100", byteOrder: .bigEndian)
    static let bigPadding = JPEGBytes.segment(0xE2, payload: [UInt8](repeating: 0x55, count: 65_000))

    static let samples: [(String, [UInt8])] = [
        ("small JPEG", JPEGFixture.make(exif: exif, width: 40, height: 30)),
        ("no EXIF", JPEGFixture.make(exif: nil)),
        ("APP1 straddles the 64 KiB head", JPEGBytes.inserting([bigPadding], into: JPEGFixture.make(exif: exif))),
        (
            "APP1 and frame header beyond the head",
            JPEGBytes.inserting([bigPadding, bigPadding], into: JPEGFixture.make(exif: exif, width: 7, height: 5))
        ),
        ("PNG header", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
        ("text", Array("just text\n".utf8)),
        ("empty", []),
    ]

    @Test("the file path gives the same result as the memory path", arguments: samples.indices)
    func sameAsBytes(index: Int) throws {
        let (name, bytes) = Self.samples[index]
        let fromFile = try Sample.readThroughFile(bytes)
        #expect(fromFile == MetadataReader.read(bytes: bytes), "\(name)")
    }

    /// A reader hands one buffer from file to file: no file sees another's bytes, a short file
    /// after a long one included, and a file shorter than it was said to be.
    @Test("files read one after another through one head buffer read as each alone")
    func oneBufferForMany() throws {
        let buffer = HeadBuffer()
        let files = Self.samples.map(\.1) + [Array(JPEGFixture.make(exif: Self.exif).prefix(40))]
        for bytes in files + files.reversed() + files {
            let claimed = bytes.count == 40 ? 100_000 : bytes.count
            #expect(try Sample.readThroughFile(bytes, claimedSize: claimed, reusing: buffer) == MetadataReader.read(bytes: bytes))
        }
    }

    @Test("far-away APP1 and frame header are still found through the file")
    func farSegments() throws {
        let metadata = try Sample.readThroughFile(Self.samples[3].1)
        #expect(metadata.descriptions.exif == Self.description)
        #expect(metadata.taken == "2022-06-07T08:09:10-03:00")
        #expect(metadata.make == Array("Fuji".utf8))
        #expect(metadata.width == 7 && metadata.height == 5)
    }

    @Test("a file that is shorter than the size we were told")
    func shrunkFile() throws {
        let bytes = JPEGFixture.make(exif: Self.exif)
        let metadata = try Sample.readThroughFile(Array(bytes.prefix(40)), claimedSize: bytes.count + 100_000)
        #expect(metadata.format == .jpeg)
        #expect(metadata.descriptions.exif == nil)
    }

    @Test("a closed or invalid descriptor gives no metadata", arguments: [-1, 9999])
    func badDescriptor(descriptor: Int32) {
        #expect(MetadataReader.read(fileDescriptor: descriptor, fileSize: 1000) == ImageMetadata())
    }
}
