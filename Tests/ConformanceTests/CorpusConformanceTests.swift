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

    static func manifest() throws -> [[String: Any]] {
        let data = try Data(contentsOf: folder.appendingPathComponent("manifest.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    }
}

/// photod over 259 real images from public test suites (JPEG, TIFF, raws, PNG, WebP, HEIF, AVIF,
/// JPEG XL, broken files), against ExifTool's manifest: one daemon per description source, each
/// configured to consult only that source, so every asset's description is that source's value.
@Suite(.serialized)
struct CorpusConformanceTests {
    /// The manifest field each source is compared with.
    static let fields: [(source: String, field: String)] = [
        ("exif", "exif_image_description"), ("xmp", "xmp_description"), ("iptc", "iptc_caption"),
    ]

    @Test(.enabled(if: Corpus.available, "../shared/corpus is not beside this checkout; conformance skipped"))
    func everySourceMatchesExifToolsManifestInEveryFormat() async throws {
        let manifest = try Corpus.manifest()
        var byFile: [String: [String: Asset]] = [:]  // file -> source -> asset
        for (source, _) in Self.fields {
            let assets = try await index(onlySource: source)
            #expect(assets.count == manifest.count, "every file is indexed (\(source) run: \(assets.count))")
            for (name, asset) in assets { byFile[name, default: [:]][source] = asset }
        }

        var perFormat: [String: (agree: Int, total: Int)] = [:]
        var unreadable: [String] = []
        var disagreements: [String] = []
        for entry in manifest {
            guard let name = entry["file"] as? String, let format = entry["format"] as? String else { continue }
            if let errors = entry["exiftool_errors"] as? [String], !errors.isEmpty {
                unreadable.append("\(name) (\(format)): \(errors.joined(separator: "; "))")
                continue
            }
            var agrees = true
            for (source, field) in Self.fields {
                let expected = Self.expectedText(entry[field])
                let actual = byFile[name]?[source]
                // An empty tag and an absent one both leave the photo without a description.
                let same = actual?.description == expected || (actual?.description == nil && expected == "")
                if actual == nil || !same {
                    agrees = false
                    disagreements.append("\(name) \(source): photod \(actual?.description.debugDescription ?? "not indexed"), "
                                         + "exiftool \(expected.debugDescription)")
                } else if actual?.description != nil, actual?.descriptionSource?.rawValue != source {
                    agrees = false
                    disagreements.append("\(name): descriptionSource \(String(describing: actual?.descriptionSource)), expected \(source)")
                }
            }
            perFormat[format, default: (0, 0)].total += 1
            if agrees { perFormat[format, default: (0, 0)].agree += 1 }
        }

        let agree = perFormat.values.map(\.agree).reduce(0, +)
        let total = perFormat.values.map(\.total).reduce(0, +)
        for (format, counts) in perFormat.sorted(by: { $0.key < $1.key }) {
            print("corpus: \(format): \(counts.agree)/\(counts.total) files agree on EXIF, XMP and IPTC descriptions")
        }
        print("corpus: all formats ExifTool reads: \(agree)/\(total) (\(String(format: "%.1f", Double(agree) * 100 / Double(max(total, 1))))%)")
        for line in unreadable { print("corpus: ExifTool could not read, not counted: \(line)") }
        for line in disagreements { print("corpus: disagrees: \(line)") }

        let jpeg = try #require(perFormat["JPEG"])
        #expect(jpeg.total >= 170)
        #expect(jpeg.agree == jpeg.total, "every JPEG agrees")
        #expect(Double(agree) >= 0.95 * Double(total), "at least 95% of the files ExifTool reads agree")
    }

    /// Indexes a copy of the corpus with only `source` consulted; assets by file name.
    private func index(onlySource source: String) async throws -> [String: Asset] {
        let daemon = try DaemonHarness(settings: "[groups]\ndescription_sources = [\"\(source)\"]")
        // Index a copy, so no test ever writes next to the shared originals.
        let images = Corpus.folder.appendingPathComponent("images").path
        for name in try FileManager.default.contentsOfDirectory(atPath: images) {
            try FileManager.default.copyItem(atPath: images + "/" + name, toPath: daemon.library + "/" + name)
        }
        try await daemon.start(timeout: 120)
        let client = try await PhotoClient.connect(socketPath: daemon.socket)
        let assets = try await client.allAssets(group: nil)
        await client.close()
        #expect(daemon.isRunning, "no file may crash the daemon")
        _ = await daemon.stop()
        return Dictionary(assets.map { (($0.path as NSString).lastPathComponent, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// A manifest text field, decoding its "base64:" form (non-UTF-8 bytes) as Latin-1 up to the first NUL.
    static func expectedText(_ value: Any?) -> String? {
        guard let value = value as? String else { return nil }
        guard value.hasPrefix("base64:"), let data = Data(base64Encoded: String(value.dropFirst(7))) else { return value }
        let cut = data.prefix { $0 != 0 }
        return String(validating: cut, as: UTF8.self) ?? String(String.UnicodeScalarView(cut.map { Unicode.Scalar($0) }))
    }
}
