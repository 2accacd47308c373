import Foundation
import Metadata
import PhotoTestSupport
import Testing

/// The shared real-world corpus beside the checkout, and ExifTool to judge the writer by.
enum DescriptionCorpus {
    static let folder = Binaries.repository.deletingLastPathComponent().appendingPathComponent("shared/corpus")
    static let exiftool = "/usr/bin/exiftool"
    static var available: Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent("manifest.json").path)
            && FileManager.default.isExecutableFile(atPath: exiftool)
    }
}

/// Every corpus JPEG given a new description, judged by ExifTool: it reads the new text back, and
/// nothing else it sees changed; the image data is byte-identical; photod's reader agrees.
@Suite("Description writing: corpus against ExifTool")
struct DescriptionEditCorpusTests {
    /// Non-ASCII and markup, so UTF-8 and escaping are exercised; within Latin-1, so a Latin-1 IPTC block can
    /// take it (text beyond Latin-1 there is refused when other datasets are Latin-1: unit-tested).
    static let text = "photod 28: Strand & Düne <Nord>"
    /// The tags that hold the description (and IPTC's character set, declared when the text needs UTF-8).
    static let descriptionTags: Set<String> = [
        "[IFD0] ImageDescription", "[XMP-dc] Description", "[IPTC] Caption-Abstract", "[IPTC] CodedCharacterSet",
        // ExifTool shows this as a position in the file: it moves when a segment before the Exif APP1 changes size.
        "[IFD1] ThumbnailOffset",
    ]

    @Test(.enabled(if: DescriptionCorpus.available, "../shared/corpus or /usr/bin/exiftool is missing; corpus check skipped"))
    func everyJPEG() async throws {
        let manifest = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: DescriptionCorpus.folder.appendingPathComponent("manifest.json"))) as? [[String: Any]])
        let names = manifest.filter { $0["format"] as? String == "JPEG" }.compactMap { $0["file"] as? String }
        let temporary = try TemporaryDirectory()
        var written: [(name: String, original: String, edited: String)] = []
        var refused: [String] = []
        for name in names {
            let path = DescriptionCorpus.folder.appendingPathComponent("images/\(name)").path
            let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            do {
                let edited = try DescriptionEdit.jpeg(original, description: Self.text)
                #expect(imageData(edited) == imageData(original), "\(name): image data changed")
                #expect(MetadataReader.read(bytes: edited).descriptions.exif == Array(Self.text.utf8), "\(name)")
                written.append((name, path, try temporary.write(name, edited)))
            } catch {
                refused.append("\(name): \(error)")
            }
        }

        let before = try await Self.exiftool(written.map(\.original))
        let after = try await Self.exiftool(written.map(\.edited))
        var differing: [String] = []
        for file in written {
            let old = before[file.original] ?? [], new = after[file.edited] ?? []
            #expect(new.contains("[IFD0] ImageDescription: \(Self.text)"), "\(file.name): ExifTool reads no new EXIF description")
            for tag in ["[XMP-dc] Description", "[IPTC] Caption-Abstract"] where old.contains(where: { $0.hasPrefix(tag + ":") }) {
                #expect(new.contains("\(tag): \(Self.text)"), "\(file.name): ExifTool reads no new \(tag)")
            }
            // IPTCDigest (the MD5 of the IPTC block) is recomputed when it was current, else left alone.
            if let digest = Self.value(old, Self.digestTag) {
                let current = Self.value(old, Self.currentDigestTag) == digest
                let expected = current ? Self.value(new, Self.currentDigestTag) : digest
                #expect(Self.value(new, Self.digestTag) == expected, "\(file.name): IPTCDigest (current before: \(current))")
            }
            let changed = Set(old).symmetricDifference(Set(new)).filter { line in
                !(Self.descriptionTags.union([Self.digestTag, Self.currentDigestTag])).contains { line.hasPrefix($0 + ":") }
            }
            if !changed.isEmpty { differing.append("\(file.name): \(changed.sorted().joined(separator: " | "))") }
        }
        print("describe corpus: \(written.count) JPEGs written, \(refused.count) refused, \(differing.count) with other tags changed")
        for line in refused { print("describe corpus: refused \(line)") }
        for line in differing { print("describe corpus: differs \(line)") }
        #expect(differing.isEmpty, "ExifTool sees tags other than the description changed")
        // Refusals are for files the writer cannot edit safely (malformed, UTF-16 XMP, offsets it does
        // not adjust); they must stay rare: at most 12 of the corpus's 173 JPEGs (9 when this was written).
        #expect(refused.count <= 12, "\(refused.count) of \(names.count) refused")
    }

    static let digestTag = "[Photoshop] IPTCDigest"
    /// ExifTool's MD5 of the IPTC block as the file holds it now (asked for by name; not a System tag).
    static let currentDigestTag = "[File] CurrentIPTCDigest"

    /// The value of `tag` among a file's lines.
    static func value(_ lines: [String], _ tag: String) -> String? {
        lines.first { $0.hasPrefix(tag + ": ") }.map { String($0.dropFirst(tag.count + 2)) }
    }

    /// `exiftool -a -G1 -s -n` (and CurrentIPTCDigest) of many files in one run: each file's lines as
    /// "[Group] Tag: value", without the file system's (name, times, size) that any rewrite changes.
    static func exiftool(_ paths: [String]) async throws -> [String: [String]] {
        guard !paths.isEmpty else { return [:] }
        let result = try await ProcessRunner.run(DescriptionCorpus.exiftool, ["-a", "-G1", "-s", "-n", "-all", "-CurrentIPTCDigest"] + paths, timeout: 600)
        var files: [String: [String]] = [:]
        var current: String?
        for line in result.stdout.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("======== ") {
                current = String(line.dropFirst(9))
                continue
            }
            guard let current, !line.hasPrefix("[System]"), let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon].split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
            if key.hasPrefix("[File]"), key != currentDigestTag { continue }
            let value = line[line.index(after: colon)...].drop { $0 == " " }
            // ExifTool names the file in some messages; the copy has another folder.
            let lines = String(value).replacingOccurrences(of: current, with: "FILE")
            files[current, default: []].append("\(key): \(lines)")
        }
        return files
    }
}
