import Metadata
import PhotoTestSupport
import Testing

@Suite("Description writing: XMP and IPTC kept in step, sidecars")
struct DescriptionEditSourcesTests {
    private func descriptions(_ jpeg: [UInt8]) -> DescriptionCandidates {
        MetadataReader.read(bytes: jpeg).descriptions
    }

    @Test("EXIF, XMP and IPTC all hold the new text; the XMP segment keeps its size through its padding")
    func allSources() throws {
        let original = JPEGFixture.make(
            exif: ExifFixture(description: "Old"), xmp: XMPFixture(description: "Old").packet(),
            iptc: IPTCFixture(caption: Array("Old".utf8)).iim())
        let text = "Fish & <chips> \"here\""
        let edited = try DescriptionEdit.jpeg(original, description: text)
        let found = descriptions(edited)
        #expect(found == DescriptionCandidates(exif: Array(text.utf8), xmp: Array(text.utf8), iptc: Array(text.utf8)))
        #expect(imageData(edited) == imageData(original))
        #expect(edited.firstRange(of: Array("Fish &amp; &lt;chips&gt;".utf8)) != nil)
        // The title is another tag: untouched.
        #expect(edited.firstRange(of: Array("Not the description".utf8)) != nil)
        let cleared = try DescriptionEdit.jpeg(edited, description: nil)
        #expect(descriptions(cleared) == DescriptionCandidates())
        #expect(cleared.firstRange(of: Array("Fish".utf8)) == nil)
        #expect(cleared.firstRange(of: Array("Not the description".utf8)) != nil)
    }

    @Test("only the x-default alternative changes; other languages stay")
    func otherLanguagesStay() throws {
        let packet = XMPFixture(alternatives: [.init(language: "x-default", text: "Old"), .init(language: "de", text: "Alt")]).packet()
        let original = JPEGFixture.make(exif: nil, xmp: packet)
        let edited = try DescriptionEdit.jpeg(original, description: "New")
        #expect(descriptions(edited).xmp == Array("New".utf8))
        #expect(edited.firstRange(of: Array("xml:lang=\"de\">Alt<".utf8)) != nil)
    }

    @Test("a description attribute is edited in place, escaped for an attribute")
    func attributeForm() throws {
        let packet = Array("""
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" dc:description="Old"/>
            </rdf:RDF></x:xmpmeta>
            """.utf8)
        let original = JPEGFixture.make(exif: nil, xmp: packet)
        let edited = try DescriptionEdit.jpeg(original, description: "Say \"hi\"\nthen go")
        #expect(descriptions(edited).xmp == Array("Say \"hi\"\nthen go".utf8))
        let cleared = try DescriptionEdit.jpeg(edited, description: nil)
        #expect(descriptions(cleared).xmp == nil)
    }

    @Test("IPTC: Latin-1 stays Latin-1, declared UTF-8 stays UTF-8, beyond Latin-1 declares UTF-8")
    func iptcCharacterSets() throws {
        let latin = JPEGFixture.make(exif: nil, iptc: IPTCFixture(caption: [0x4F, 0x6C, 0x64]).iim())
        let cafe = try DescriptionEdit.jpeg(latin, description: "Café")
        #expect(descriptions(cafe).iptc == Array("Café".utf8))
        #expect(cafe.firstRange(of: [0x43, 0x61, 0x66, 0xE9]) != nil)

        let utf8 = JPEGFixture.make(exif: nil, iptc: IPTCFixture(caption: Array("Old".utf8), declaresUTF8: true).iim())
        #expect(descriptions(try DescriptionEdit.jpeg(utf8, description: "Café")).iptc == Array("Café".utf8))

        let tokyo = try DescriptionEdit.jpeg(latin, description: "東京")
        #expect(descriptions(tokyo).iptc == Array("東京".utf8))
        #expect(tokyo.firstRange(of: [0x1C, 1, 90, 0, 3, 0x1B, 0x25, 0x47]) != nil)
    }

    @Test("an extended-length caption is rewritten; the object name before it stays")
    func iptcExtended() throws {
        let original = JPEGFixture.make(exif: nil, iptc: IPTCFixture(caption: Array("Old".utf8), extendedLength: true).iim())
        let edited = try DescriptionEdit.jpeg(original, description: "New caption")
        #expect(descriptions(edited).iptc == Array("New caption".utf8))
        #expect(edited.firstRange(of: Array("Object name".utf8)) != nil)
        let cleared = try DescriptionEdit.jpeg(edited, description: nil)
        #expect(descriptions(cleared).iptc == nil)
        #expect(cleared.firstRange(of: Array("Object name".utf8)) != nil)
    }

    @Test("XMP without dc:description and IPTC without a caption are left as they are")
    func sourcesWithoutDescription() throws {
        let packet = XMPFixture(alternatives: []).packet()
        let iim = IPTCFixture.dataset(record: 2, number: 5, Array("Object".utf8))
        let original = JPEGFixture.make(exif: ExifFixture(description: "Old"), xmp: packet, iptc: iim)
        let edited = try DescriptionEdit.jpeg(original, description: "New")
        #expect(edited.firstRange(of: packet) != nil)
        #expect(edited.firstRange(of: iim) != nil)
        #expect(descriptions(edited) == DescriptionCandidates(exif: Array("New".utf8)))
    }

    @Test("a sidecar is created, updated keeping its other properties, and cleared")
    func sidecar() throws {
        #expect(try DescriptionEdit.sidecar(existing: nil, description: nil) == nil)
        let created = try #require(try DescriptionEdit.sidecar(existing: nil, description: "Café <1>"))
        #expect(XMPPacket.description(in: created) == Array("Café <1>".utf8))

        let existing = XMPFixture(description: "Old").packet()
        let updated = try #require(try DescriptionEdit.sidecar(existing: existing, description: "New"))
        #expect(XMPPacket.description(in: updated) == Array("New".utf8))
        #expect(updated.count == existing.count)
        #expect(updated.firstRange(of: Array("Not the description".utf8)) != nil)

        let cleared = try #require(try DescriptionEdit.sidecar(existing: updated, description: nil))
        #expect(XMPPacket.description(in: cleared) == nil)
        #expect(cleared.firstRange(of: Array("Not the description".utf8)) != nil)

        let added = try #require(try DescriptionEdit.sidecar(existing: cleared, description: "Again"))
        #expect(XMPPacket.description(in: added) == Array("Again".utf8))
        #expect(added.firstRange(of: Array("Not the description".utf8)) != nil)
    }

    @Test("a sidecar that is not XMP is refused")
    func sidecarRefused() {
        #expect(throws: DescriptionEditError.self) {
            try DescriptionEdit.sidecar(existing: Array("not xml at all".utf8), description: "x")
        }
        #expect(throws: DescriptionEditError.inputTooLarge(limit: XMPPacket.maxLength)) {
            try DescriptionEdit.sidecar(existing: [UInt8](repeating: 0x20, count: XMPPacket.maxLength + 1), description: "x")
        }
    }
}
