import Foundation
import Metadata
import PhotoTestSupport
import Testing

/// photod's embedded-preview finder against ExifTool's ThumbnailImage over the real JPEGs:
/// every JPEG ExifTool finds an IFD1 thumbnail in gives one `fast` can serve as it is.
@Suite struct EmbeddedPreviewConformanceTests {
    @Test(.enabled(if: Corpus.available, "../shared/corpus is not beside this checkout; conformance skipped"))
    func everyIFD1ThumbnailExifToolFindsIsFound() throws {
        var checked = 0
        var disagreements: [String] = []
        for entry in try Corpus.manifest() {
            guard let name = entry["file"] as? String, entry["format"] as? String == "JPEG",
                (entry["exiftool_errors"] as? [String])?.isEmpty ?? true
            else { continue }
            let groups = entry["thumbnail_image_groups"] as? [String] ?? []
            let expected = groups.contains("IFD1")
            let bytes = [UInt8](try Data(contentsOf: Corpus.folder.appendingPathComponent("images/\(name)")))
            let preview = EmbeddedPreviewReader.read(bytes: bytes, covering: 256)
            checked += 1
            if (preview != nil) != expected {
                disagreements.append("\(name): exiftool \(expected ? "has" : "has no") IFD1 thumbnail, photod "
                                     + (preview.map { "found \($0.width)x\($0.height)" } ?? "found none"))
            }
        }
        #expect(checked > 150)
        #expect(disagreements.isEmpty, "\(disagreements.joined(separator: "\n"))")
    }
}
