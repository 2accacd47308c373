@testable import PhotoCommands
import Testing

@Suite struct ExportNamesTests {
    @Test func aNumberGoesBeforeTheExtension() {
        #expect(ExportNames.numbered(Array("IMG_0001.jpg".utf8), 2) == Array("IMG_0001 (2).jpg".utf8))
        #expect(ExportNames.numbered(Array("README".utf8), 3) == Array("README (3)".utf8))
        #expect(ExportNames.numbered(Array("archive.tar.gz".utf8), 2) == Array("archive.tar (2).gz".utf8))
    }

    @Test func aLongNameIsCutToFitAtACharacterBoundary() {
        let stem = String(repeating: "é", count: 125) // 250 bytes
        let numbered = ExportNames.numbered(Array((stem + ".jpg").utf8), 12)
        #expect(numbered.count <= ExportNames.maximumLength)
        let text = String(validating: numbered, as: UTF8.self)
        #expect(text?.hasSuffix(" (12).jpg") == true, "\(String(describing: text))")
    }

    @Test func namesTakenInOneExportAreNumberedOnlyWithRenaming() {
        var names = ExportNames(folder: Array("/nonexistent-folder-for-names".utf8))
        let name = Array("a.jpg".utf8)
        #expect(names.claim(name, renaming: false, replacing: false) == name)
        #expect(names.claim(name, renaming: false, replacing: false) == nil)
        #expect(names.claim(name, renaming: true, replacing: false) == Array("a (2).jpg".utf8))
        #expect(names.claim(name, renaming: true, replacing: false) == Array("a (3).jpg".utf8))
    }
}
