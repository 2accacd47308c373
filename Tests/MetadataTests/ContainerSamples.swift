import Foundation
import Metadata
import PhotoTestSupport
import Testing

/// The facts the container tests embed, and the checks every container shares.
enum Sample {
    static let exifText = "Lake at dawn"
    // An ampersand and non-ASCII letters, so escaping and UTF-8 both have to be right.
    static let xmpText = "Sjön & the jetty"
    static let iptcText = "Brygga vid sjön"
    static let taken = "2021-05-01T10:00:00+02:00"

    static func bytes(_ text: String) -> [UInt8] {
        Array(text.utf8)
    }

    /// Every EXIF fact the reader reports, with trailing spaces in Make that the reader must trim.
    static func exif(_ byteOrder: TIFFByteOrder) -> ExifFixture {
        ExifFixture(
            description: exifText, dateTimeOriginal: "2021:05:01 10:00:00", offsetTimeOriginal: "+02:00",
            orientation: 6, make: "Canon  ", model: "EOS R5", byteOrder: byteOrder)
    }

    static var xmp: [UInt8] {
        XMPFixture(description: xmpText).packet()
    }

    static var iptc: [UInt8] {
        IPTCFixture(caption: bytes(iptcText), declaresUTF8: true).iim()
    }

    /// What a file built from `exif`, `xmp` and `iptc` must yield, with the sources it lacks left nil.
    static func candidates(exif: Bool = true, xmp: Bool = false, iptc: Bool = false) -> DescriptionCandidates {
        DescriptionCandidates(
            exif: exif ? bytes(exifText) : nil, xmp: xmp ? bytes(xmpText) : nil, iptc: iptc ? bytes(iptcText) : nil)
    }

    /// The facts that come from the Exif block: description, date with offset, orientation, make and model.
    static func expectExifFacts(_ metadata: ImageMetadata, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(metadata.descriptions.exif == bytes(exifText), sourceLocation: sourceLocation)
        #expect(metadata.taken == taken, sourceLocation: sourceLocation)
        #expect(metadata.orientation == 6, sourceLocation: sourceLocation)
        #expect(metadata.make == bytes("Canon"), sourceLocation: sourceLocation)
        #expect(metadata.model == bytes("EOS R5"), sourceLocation: sourceLocation)
    }

    /// Reads every prefix of `bytes`: none may crash, and none may report a description or date that is
    /// not exactly the one embedded (a value cut short by the truncation is a wrong value, not a partial one).
    static func expectPrefixesNeverLie(
        _ bytes: [UInt8], expected: DescriptionCandidates, stride step: Int = 1,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let dates: Set<String?> = [nil, "2021-05-01T10:00:00", taken]
        for length in Swift.stride(from: 0, through: bytes.count, by: step) {
            let metadata = MetadataReader.read(bytes: Array(bytes.prefix(length)))
            for source in [DescriptionSource.exif, .xmp, .iptc] {
                let found = metadata.descriptions[source]
                #expect(
                    found == nil || found == expected[source], "\(source) at prefix \(length)",
                    sourceLocation: sourceLocation)
            }
            #expect(dates.contains(metadata.taken), "taken at prefix \(length)", sourceLocation: sourceLocation)
        }
    }

    /// `found` is either absent or exactly `expected`: for damaged files where giving up is also right.
    static func expectAbsentOrExact(
        _ found: [UInt8]?, _ expected: [UInt8], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(found == nil || found == expected, sourceLocation: sourceLocation)
    }

    /// Writes the bytes to a temporary file and reads them through the file-descriptor (pread) path,
    /// telling the reader the file is `claimedSize` bytes long (default: its real size), its head
    /// read into `buffer` when given.
    static func readThroughFile(_ bytes: [UInt8], claimedSize: Int? = nil, reusing buffer: HeadBuffer? = nil) throws
        -> ImageMetadata {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("container-\(UUID().uuidString)")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let descriptor = open(url.path, O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        return MetadataReader.read(fileDescriptor: descriptor, fileSize: claimedSize ?? bytes.count, reusing: buffer)
    }

    /// The bytes with `replacement` written over them at `offset`.
    static func patching(_ bytes: [UInt8], at offset: Int, with replacement: [UInt8]) -> [UInt8] {
        var patched = bytes
        patched.replaceSubrange(offset..<(offset + replacement.count), with: replacement)
        return patched
    }

    /// The offset of the first occurrence of `needle`, for patching a box or chunk found by its type.
    static func offset(of needle: String, in bytes: [UInt8]) -> Int? {
        let pattern = Array(needle.utf8)
        guard bytes.count >= pattern.count else { return nil }
        return (0...(bytes.count - pattern.count)).first { bytes[$0..<($0 + pattern.count)].elementsEqual(pattern) }
    }
}
