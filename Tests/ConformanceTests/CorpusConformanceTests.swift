import Foundation
import PhotoAPI
import PhotoClient
import PhotoTestSupport
import Testing

/// The shared real-world corpus (../shared/corpus beside the repository), when it is there.
enum Corpus {
    static let folder = Binaries.repository.deletingLastPathComponent().appendingPathComponent("shared/corpus")
    static var available: Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent("manifest.json").path)
    }
}

/// photod over 259 real images from public test suites, against ExifTool's manifest.
@Suite(.serialized)
struct CorpusConformanceTests {
    @Test(.enabled(if: Corpus.available, "../shared/corpus is not beside this checkout; conformance skipped"))
    func jpegDescriptionsMatchExifToolsManifest() async throws {
        let manifestData = try Data(contentsOf: Corpus.folder.appendingPathComponent("manifest.json"))
        let manifest = try #require(try JSONSerialization.jsonObject(with: manifestData) as? [[String: Any]])
        let daemon = try DaemonHarness()
        // Index a copy, so no test ever writes next to the shared originals.
        let images = Corpus.folder.appendingPathComponent("images").path
        for name in try FileManager.default.contentsOfDirectory(atPath: images) {
            try FileManager.default.copyItem(atPath: images + "/" + name, toPath: daemon.library + "/" + name)
        }
        try daemon.start(timeout: 120)
        let client = try await PhotoClient.connect(socketPath: daemon.socket)
        let assets = try await client.allAssets(group: nil)
        await client.close()
        #expect(daemon.isRunning, "no file may crash the daemon")
        let byName = Dictionary(assets.map { (($0.path as NSString).lastPathComponent, $0) },
                                uniquingKeysWith: { first, _ in first })

        var agree = 0
        var disagreements: [String] = []
        let jpegs = manifest.filter { $0["format"] as? String == "JPEG" }
        for entry in jpegs {
            guard let name = entry["file"] as? String else { continue }
            let expected = Self.expectedDescription(entry)
            guard let asset = byName[name] else {
                disagreements.append("\(name): not indexed")
                continue
            }
            // libexif drops a zero-length entry on load, so an empty value reads as absent;
            // both file the photo in the fallback group, which is what grouping needs.
            if asset.description == expected || (asset.description == nil && expected == "") {
                agree += 1
            } else {
                disagreements.append("\(name): photod \(asset.description.debugDescription), exiftool \(expected.debugDescription)")
            }
        }
        let percent = Double(agree) * 100 / Double(max(jpegs.count, 1))
        print("corpus: JPEG IFD0 ImageDescription agreement \(agree)/\(jpegs.count) (\(String(format: "%.1f", percent))%); "
              + "\(assets.count) of \(manifest.count) files indexed")
        for line in disagreements { print("corpus: disagrees: \(line)") }
        #expect(jpegs.count >= 170)
        // The only known disagreement is a proof-of-concept file where ExifTool drops a
        // "suspicious offset" value that the raw bytes (and libexif) do hold.
        #expect(disagreements.allSatisfy { $0.hasPrefix("e2_issue_ghsa_g44w_q3vm_gwjq_poc.jpg") }, "\(disagreements)")
    }

    /// The manifest's IFD0 description, decoding its "base64:" form (non-UTF-8 bytes) as Latin-1.
    static func expectedDescription(_ entry: [String: Any]) -> String? {
        guard let value = entry["exif_image_description"] as? String else { return nil }
        guard value.hasPrefix("base64:"), let data = Data(base64Encoded: String(value.dropFirst(7))) else { return value }
        let cut = data.prefix { $0 != 0 }
        return String(validating: cut, as: UTF8.self) ?? String(String.UnicodeScalarView(cut.map { Unicode.Scalar($0) }))
    }
}
