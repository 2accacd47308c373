import Metadata
import PhotoTestSupport
import Testing

/// Layouts with offsets the writer does not adjust: refused when the edit would move what they point at.
@Suite("Description writing: offsets outside the Exif block")
struct DescriptionEditOffsetTests {
    /// A JPEG ending with an AFCP trailer footer ("AXS!" and 8 more bytes), which holds absolute file offsets.
    private let afcp = JPEGFixture.make(exif: ExifFixture(description: "Old")) + Array("AXS!".utf8) + [UInt8](repeating: 0, count: 8)

    @Test("an AFCP trailer refuses an edit that changes the file's length")
    func afcpMoved() {
        do {
            _ = try DescriptionEdit.jpeg(afcp, description: "A much longer description")
            Issue.record("written despite the AFCP trailer")
        } catch {
            if case .danglingOffset = error { return }
            Issue.record("refused for another reason: \(error)")
        }
    }

    @Test("an AFCP trailer allows an edit that keeps every byte in place")
    func afcpInPlace() throws {
        let edited = try DescriptionEdit.jpeg(afcp, description: "New")
        #expect(edited.count == afcp.count)
        #expect(MetadataReader.read(bytes: edited).descriptions.exif == Array("New".utf8))
    }
}
