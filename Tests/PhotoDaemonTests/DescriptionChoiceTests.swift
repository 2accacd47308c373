import FileSystem
import Metadata
import Testing
@testable import PhotoDaemon

/// The first usable description in the configured source order names the group.
@Suite struct DescriptionChoiceTests {
    private let all = DescriptionCandidates(
        exif: Array("From EXIF".utf8), xmp: Array("From XMP".utf8), iptc: Array("From IPTC".utf8))

    private func content(_ candidates: DescriptionCandidates, order: [Metadata.DescriptionSource]) -> (String?, String?, String) {
        let reader = AssetReader(rules: GroupingRules(), sources: order)
        let content = reader.content(from: ImageMetadata(format: .jpeg, descriptions: candidates))
        return (content.description, content.descriptionSource, content.groupSpelling)
    }

    @Test func theOrderDecidesWhichSourceWins() {
        #expect(content(all, order: [.exif, .xmp, .iptc]) == ("From EXIF", "exif", "From EXIF"))
        #expect(content(all, order: [.iptc, .exif]) == ("From IPTC", "iptc", "From IPTC"))
        #expect(content(all, order: [.xmp]) == ("From XMP", "xmp", "From XMP"))
    }

    @Test func anEmptyOrBoilerplateDescriptionGivesWayToTheNextSource() {
        let blank = DescriptionCandidates(exif: Array("   ".utf8), xmp: Array("Harbour".utf8))
        #expect(content(blank, order: [.exif, .xmp]) == ("Harbour", "xmp", "Harbour"))
        let camera = DescriptionCandidates(exif: Array("OLYMPUS DIGITAL CAMERA".utf8), iptc: Array("Fjord".utf8))
        #expect(content(camera, order: [.exif, .xmp, .iptc]) == ("Fjord", "iptc", "Fjord"))
    }

    @Test func withNothingUsableTheFirstTextFoundIsKeptAndTheFallbackGroupUsed() {
        let camera = DescriptionCandidates(exif: Array("SONY DSC".utf8), xmp: [])
        #expect(content(camera, order: [.exif, .xmp]) == ("SONY DSC", "exif", "Other"))
        #expect(content(DescriptionCandidates(), order: [.exif, .xmp, .iptc]) == (nil, nil, "Other"))
    }

    @Test func aSourceLeftOutOfTheOrderIsIgnored() {
        let onlyXMP = DescriptionCandidates(xmp: Array("Hidden".utf8))
        #expect(content(onlyXMP, order: [.exif, .iptc]) == (nil, nil, "Other"))
    }

    @Test func sidecarNamesAreRecognisedAndNeverAssets() {
        #expect(Sidecar.isSidecar(PathBytes("/p/IMG_1.JPG.xmp")))
        #expect(Sidecar.isSidecar(PathBytes("/p/IMG_1.XMP")))
        #expect(!Sidecar.isSidecar(PathBytes("/p/IMG_1.jpg")))
        #expect(Sidecar.candidates(for: PathBytes("/p/IMG_1.jpg")).map(\.description)
            == ["/p/IMG_1.jpg.xmp", "/p/IMG_1.jpg.XMP", "/p/IMG_1.xmp", "/p/IMG_1.XMP"])
        #expect(Sidecar.candidates(for: PathBytes("/p/.x/noext")).count == 2)
    }
}
