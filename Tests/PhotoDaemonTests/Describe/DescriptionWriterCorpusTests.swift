import FileSystem
import Foundation
import Metadata
import PhotoTestSupport
import Store
import Testing
@testable import PhotoDaemon

/// The writer on a copy of every corpus file, judged by ExifTool for one file of each format class:
/// a JPEG's new description is what ExifTool reads and nothing else it sees changed, the image data
/// is byte-identical; any other photo is untouched and its new sidecar holds the description.
@Suite("Description writer: corpus against ExifTool")
struct DescriptionWriterCorpusTests {
    static let corpus = Binaries.repository.deletingLastPathComponent().appendingPathComponent("shared/corpus")
    static let exiftool = "/usr/bin/exiftool"
    static var available: Bool {
        FileManager.default.fileExists(atPath: corpus.appendingPathComponent("manifest.json").path)
            && FileManager.default.isExecutableFile(atPath: exiftool)
    }
    static let text = "photod 28: Strand & Düne <Nord>"
    /// The corpus's format names, by the class the writer treats alike.
    static let classes: [(name: String, formats: Set<String>)] = [
        ("JPEG", ["JPEG"]), ("TIFF", ["TIFF", "BTF"]), ("TIFF-based raw", ["NEF", "DNG", "CR2", "ARW", "RW2", "RAW", "IIQ"]),
        ("other raw", ["CR3", "CRW", "RAF", "MRW", "X3F"]), ("PNG", ["PNG"]), ("WebP", ["WEBP", "Extended WEBP"]),
        ("HEIC/HEIF", ["HEIC", "HEIF"]), ("AVIF", ["AVIF"]), ("JPEG XL", ["JXL"]), ("other", ["GIF", "BMP", "JP2", "PSD"]),
    ]
    /// ExifTool's tags that hold the description, and those that follow from it.
    static let descriptionTags = ["[IFD0] ImageDescription", "[XMP-dc] Description", "[IPTC] Caption-Abstract",
                                  "[IPTC] CodedCharacterSet", "[IFD1] ThumbnailOffset", "[Photoshop] IPTCDigest"]

    @Test(.enabled(if: available, "../shared/corpus or /usr/bin/exiftool is missing; corpus check skipped"))
    func oneOfEveryFormatClass() async throws {
        let manifest = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: Self.corpus.appendingPathComponent("manifest.json"))) as? [[String: Any]])
        let dir = try TemporaryDirectory()
        var tally: [String: [String: Int]] = [:]
        var judged: [String: String] = [:]
        for (index, entry) in manifest.enumerated() {
            guard let name = entry["file"] as? String, let format = entry["format"] as? String,
                  let group = Self.classes.first(where: { $0.formats.contains(format) }) else { continue }
            let original = try DescribeFixture.bytes(Self.corpus.appendingPathComponent("images/\(name)").path)
            let path = try dir.write("\(index)/\(name)", original)
            var result = ""
            do {
                let outcome = try DescribeFixture.writer().write(path: PathBytes(path), expected: try DescribeFixture.stamp(path),
                                                                 description: Self.text)
                result = "\(outcome.written)".components(separatedBy: "(").first ?? "?"
                // A class's judge is a file the writer treats as the class is (a ".dng" JPEG is not a raw's).
                if judged[group.name] == nil, (group.name == "JPEG") == (result == "inPlace") {
                    judged[group.name] = try await Self.judge(outcome.written, path: path, original: original)
                }
            } catch let error as DescriptionWriteError {
                result = Self.kind(error)
                #expect(try DescribeFixture.bytes(path) == original, "\(name): refused, yet changed")
                #expect(DescribeFixture.names(dir.file("\(index)")) == [name], "\(name): refused, yet left files")
            }
            tally[group.name, default: [:]][result, default: 0] += 1
        }
        for group in Self.classes {
            let counts = (tally[group.name] ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            print("describe writer corpus: \(group.name): \(counts.joined(separator: ", ")); ExifTool judged: \(judged[group.name] ?? "none")")
        }
        for group in ["JPEG", "TIFF-based raw", "PNG", "WebP", "HEIC/HEIF", "AVIF"] {
            #expect(judged[group] != nil, "no \(group) file was written and judged")
        }
    }

    /// ExifTool's verdict on a file written, in words for the summary.
    static func judge(_ written: DescriptionWriter.Outcome.Written, path: String, original: [UInt8]) async throws -> String {
        let name = URL(fileURLWithPath: path).lastPathComponent
        switch written {
        case .inPlace:
            let edited = try DescribeFixture.bytes(path)
            #expect(JPEGImageData.afterScan(edited) == JPEGImageData.afterScan(original), "\(name): image data changed")
            let copy = path + ".before.jpg"
            try Data(original).write(to: URL(fileURLWithPath: copy))
            defer { try? FileManager.default.removeItem(atPath: copy) }
            let before = try await tags(copy), after = try await tags(path)
            #expect(after.contains("[IFD0] ImageDescription: \(text)"), "\(name): ExifTool reads no new description")
            let changed = Set(before).symmetricDifference(after).filter { line in !descriptionTags.contains { line.hasPrefix($0 + ":") } }
            #expect(changed.isEmpty, "\(name): ExifTool sees other tags changed: \(changed.sorted())")
            return "\(name) in place, \(changed.count) other tags changed"
        case .sidecar(let sidecar):
            #expect(try DescribeFixture.bytes(path) == original, "\(name): the photo changed")
            let result = try await ProcessRunner.run(exiftool, ["-s", "-s", "-s", "-XMP-dc:Description", sidecar.description])
            #expect(result.stdout == text + "\n", "\(name): ExifTool reads \(result.stdout) from the sidecar")
            let content = AssetReader(rules: GroupingRules()).read(PathBytes(path))
            if case .asset(_, let asset) = content {
                #expect(asset.description == text && asset.descriptionSource == "sidecar", "\(name): photod reads \(String(describing: asset.description))")
            } else {
                Issue.record("\(name): photod no longer reads it as an asset")
            }
            return "\(name) sidecar, ExifTool reads \(result.stdout == text + "\n" ? "the description" : "other text")"
        case .nothing:
            Issue.record("\(name): nothing written for a new description")
            return "\(name): nothing written"
        }
    }

    /// `exiftool -a -G1 -s -n` of one file, without the System and File groups (name, times, size).
    static func tags(_ path: String) async throws -> [String] {
        let result = try await ProcessRunner.run(exiftool, ["-a", "-G1", "-s", "-n", path], timeout: 120)
        return result.stdout.split(separator: "\n").map { line in
            guard let colon = line.firstIndex(of: ":") else { return String(line) }
            let key = line[..<colon].split(separator: " ").joined(separator: " ")
            return "\(key): \(line[line.index(after: colon)...].drop { $0 == " " })"
        }.filter { !$0.hasPrefix("[System]") && !$0.hasPrefix("[File]") }
    }

    /// The error's case name, for the tally.
    static func kind(_ error: DescriptionWriteError) -> String {
        switch error {
        case .refused(let reason): "refused \("\(reason)".components(separatedBy: "(").first ?? "")"
        case .notShown(let source): "not shown (\(source ?? "no source"))"
        default: "\(error)"
        }
    }
}

/// The bytes of a JPEG from its first SOS marker on: the entropy-coded image, which a metadata edit keeps.
enum JPEGImageData {
    static func afterScan(_ bytes: [UInt8]) -> ArraySlice<UInt8>? {
        var offset = 2
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            if marker == 0xDA { return bytes[offset...] }
            // Fill bytes before a marker.
            if marker == 0xFF { offset += 1; continue }
            offset += 2 + (Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3]))
        }
        return nil
    }
}
