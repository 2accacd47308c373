import Metadata
import PhotoTestSupport
import Testing

/// The bytes from the first SOS (found by segment lengths: a thumbnail inside APP1 has one too) to the end:
/// what no description edit may change.
func imageData(_ jpeg: [UInt8]) -> ArraySlice<UInt8> {
    var position = 2
    while position + 4 <= jpeg.count, jpeg[position] == 0xFF, jpeg[position + 1] != 0xDA {
        position += jpeg[position + 1] == 0xFF ? 1 : 2 + (Int(jpeg[position + 2]) << 8 | Int(jpeg[position + 3]))
    }
    return jpeg[min(position, jpeg.count)...]
}

@Suite("Description writing: JPEG EXIF")
struct DescriptionEditExifTests {
    private func descriptions(_ jpeg: [UInt8]) -> DescriptionCandidates {
        MetadataReader.read(bytes: jpeg).descriptions
    }

    @Test("a shorter description replaces the old one in its place; the file keeps its size", arguments: TIFFByteOrder.allCases)
    func shorterInPlace(order: TIFFByteOrder) throws {
        let original = JPEGFixture.make(exif: ExifFixture(description: "Holiday at the sea", make: "Canon", byteOrder: order))
        let edited = try DescriptionEdit.jpeg(original, description: "Beach")
        #expect(edited.count == original.count)
        #expect(descriptions(edited).exif == Array("Beach".utf8))
        #expect(MetadataReader.read(bytes: edited).make == Array("Canon".utf8))
        #expect(imageData(edited) == imageData(original))
        // The old text is gone from the file, not just unreferenced.
        #expect(edited.firstRange(of: Array("sea".utf8)) == nil)
    }

    @Test("a longer description is appended to the TIFF block; other tags still read", arguments: TIFFByteOrder.allCases)
    func longerAppended(order: TIFFByteOrder) throws {
        let exif = ExifFixture(description: "Old", dateTimeOriginal: "2021:05:01 10:00:00", orientation: 6,
                               model: "EOS", byteOrder: order, thumbnail: JPEGFixture.make(exif: nil))
        let original = JPEGFixture.make(exif: exif)
        let text = "A much longer description, with UTF-8: café, 東京"
        let edited = try DescriptionEdit.jpeg(original, description: text)
        let metadata = MetadataReader.read(bytes: edited)
        #expect(metadata.descriptions.exif == Array(text.utf8))
        #expect(metadata.taken == "2021-05-01T10:00:00")
        #expect(metadata.orientation == 6)
        #expect(metadata.model == Array("EOS".utf8))
        #expect(imageData(edited) == imageData(original))
    }

    @Test("short values (up to 3 bytes and a NUL) sit inside the entry")
    func inlineValue() throws {
        let original = JPEGFixture.make(exif: ExifFixture(description: "Something long enough", make: "Nikon"))
        let edited = try DescriptionEdit.jpeg(original, description: "Cat")
        #expect(descriptions(edited).exif == Array("Cat".utf8))
        #expect(try DescriptionEdit.jpeg(edited, description: "Dogs and cats").count > edited.count)
    }

    @Test("clearing removes the entry; the other IFD0 entries stay", arguments: TIFFByteOrder.allCases)
    func clear(order: TIFFByteOrder) throws {
        let original = JPEGFixture.make(exif: ExifFixture(description: "Remove me", orientation: 3, make: "Sony", byteOrder: order))
        let edited = try DescriptionEdit.jpeg(original, description: nil)
        let metadata = MetadataReader.read(bytes: edited)
        #expect(metadata.descriptions.exif == nil)
        #expect(metadata.orientation == 3)
        #expect(metadata.make == Array("Sony".utf8))
        #expect(edited.count == original.count)
        #expect(edited.firstRange(of: Array("Remove".utf8)) == nil)
    }

    @Test("an EXIF block without ImageDescription gets one (IFD0 moved to the block's end)", arguments: TIFFByteOrder.allCases)
    func addEntry(order: TIFFByteOrder) throws {
        let original = JPEGFixture.make(exif: ExifFixture(dateTimeOriginal: "2020:01:02 03:04:05", orientation: 8,
                                                          make: "Fuji", byteOrder: order))
        let edited = try DescriptionEdit.jpeg(original, description: "Mountains")
        let metadata = MetadataReader.read(bytes: edited)
        #expect(metadata.descriptions.exif == Array("Mountains".utf8))
        #expect(metadata.taken == "2020-01-02T03:04:05")
        #expect(metadata.orientation == 8)
        #expect(metadata.make == Array("Fuji".utf8))
    }

    @Test("a JPEG without EXIF gets a minimal Exif APP1 after SOI and its JFIF APP0")
    func insertAPP1() throws {
        let jfif = JPEGBytes.segment(0xE0, payload: Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0])
        let original = JPEGBytes.inserting([jfif], into: JPEGFixture.make(exif: nil))
        let edited = try DescriptionEdit.jpeg(original, description: "New")
        #expect(descriptions(edited).exif == Array("New".utf8))
        #expect(Array(edited[..<(2 + jfif.count)]) == Array(original[..<(2 + jfif.count)]))
        let inserted = 2 + jfif.count
        #expect(edited[inserted + 1] == 0xE1)
        let length = Int(edited[inserted + 2]) << 8 | Int(edited[inserted + 3])
        #expect(Array(edited[(inserted + 2 + length)...]) == Array(original[inserted...]))
        // Clearing a file that never had a description changes nothing.
        #expect(try DescriptionEdit.jpeg(original, description: nil) == original)
    }

    @Test("the same edit twice gives the same bytes; setting the old text back reads the old text")
    func idempotent() throws {
        let original = JPEGFixture.make(exif: ExifFixture(description: "First"))
        let once = try DescriptionEdit.jpeg(original, description: "Second description")
        #expect(try DescriptionEdit.jpeg(once, description: "Second description") == once)
        #expect(descriptions(try DescriptionEdit.jpeg(once, description: "First")).exif == Array("First".utf8))
    }
}

@Suite("Description writing: refusals")
struct DescriptionEditRefusalTests {
    private let jpeg = JPEGFixture.make(exif: ExifFixture(description: "Old"))

    @Test("a description past the limit, with NUL or with control characters is refused")
    func invalidText() {
        #expect(throws: DescriptionEditError.descriptionTooLong(limit: DescriptionEdit.maxDescriptionBytes)) {
            try DescriptionEdit.jpeg(jpeg, description: String(repeating: "é", count: 1001))
        }
        #expect(throws: DescriptionEditError.self) { try DescriptionEdit.jpeg(jpeg, description: "a\u{0}b") }
        #expect(throws: DescriptionEditError.self) { try DescriptionEdit.jpeg(jpeg, description: "a\u{1}b") }
        #expect(throws: DescriptionEditError.self) { try DescriptionEdit.sidecar(existing: nil, description: "a\u{0}") }
        // Exactly the limit, with tabs and line ends, is fine.
        let atLimit = String(repeating: "a\t\n", count: 666) + "ab"
        #expect((try? DescriptionEdit.jpeg(jpeg, description: atLimit)) != nil)
    }

    @Test("not a JPEG, truncated segments and junk between segments are refused with a name")
    func malformed() {
        #expect(throws: DescriptionEditError.notJPEG) { try DescriptionEdit.jpeg([0x89, 0x50, 0x4E, 0x47], description: "x") }
        #expect(throws: DescriptionEditError.notJPEG) { try DescriptionEdit.jpeg([], description: "x") }
        let app1Length = Int(jpeg[4]) << 8 | Int(jpeg[5])
        for cut in [3, 5, 9, app1Length, app1Length + 3] {
            #expect(throws: DescriptionEditError.self) { try DescriptionEdit.jpeg(Array(jpeg.prefix(cut)), description: "x") }
        }
        var junk = jpeg
        junk.insert(contentsOf: [0x12, 0x34], at: 4 + app1Length)
        #expect(throws: DescriptionEditError.self) { try DescriptionEdit.jpeg(junk, description: "x") }
        var badLength = jpeg
        badLength[4] = 0xFF
        badLength[5] = 0xFF
        #expect(throws: DescriptionEditError.self) { try DescriptionEdit.jpeg(badLength, description: "x") }
    }

    @Test("a broken TIFF header or an IFD0 past the segment is refused, not rewritten")
    func malformedExif() {
        var badHeader = jpeg
        badHeader[12] = 0x41  // "II" becomes "AI"
        #expect(throws: DescriptionEditError.self) { try DescriptionEdit.jpeg(badHeader, description: "x") }
        var farIFD = jpeg
        farIFD.replaceSubrange(14..<18, with: [0x00, 0xFF, 0x00, 0x00])  // IFD0 offset 65280 (little-endian)
        #expect(throws: DescriptionEditError.self) { try DescriptionEdit.jpeg(farIFD, description: "x") }
    }

    @Test("every prefix and single-byte corruption of a real JPEG is handled without a crash")
    func noCrash() {
        let full = JPEGFixture.make(
            exif: ExifFixture(description: "Old", make: "Canon"), xmp: XMPFixture(description: "Old").packet(),
            iptc: IPTCFixture(caption: Array("Old".utf8)).iim())
        for cut in stride(from: 0, to: full.count, by: 7) {
            _ = try? DescriptionEdit.jpeg(Array(full.prefix(cut)), description: "New")
        }
        var generator = SplitMix64(seed: 28)
        for _ in 0..<2000 {
            var mutated = full
            let index = Int(generator.next() % UInt64(min(full.count, 1200)))
            mutated[index] = UInt8(truncatingIfNeeded: generator.next())
            if let edited = try? DescriptionEdit.jpeg(mutated, description: "New") {
                #expect(MetadataReader.read(bytes: edited).descriptions.exif == Array("New".utf8))
            }
        }
    }

    @Test("a segment that would pass 65,533 bytes is refused as TooLarge")
    func tooLarge() {
        let packet = XMPFixture(description: "Old").packet()
        let filler = Array(String(repeating: " ", count: 65_533 - 29 - packet.count).utf8)
        let full = JPEGFixture.make(exif: ExifFixture(description: "Old"), xmp: packet + filler)
        // The packet's own padding (64 spaces) cannot absorb 500 more bytes, and the segment is full.
        #expect(throws: DescriptionEditError.tooLarge(segment: "XMP APP1")) {
            try DescriptionEdit.jpeg(full, description: String(repeating: "x", count: 500))
        }
    }
}
