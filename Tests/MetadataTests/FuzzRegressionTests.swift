import Foundation
import Metadata
import PhotoTestSupport
import Testing

/// One kept fuzz input: a committed seed (fuzz/seeds/<target>/) or a saved finding (fuzz/regressions/<target>/).
struct FuzzInputFile: Sendable, CustomTestStringConvertible {
    let target: String
    let url: URL

    var testDescription: String { "\(url.deletingLastPathComponent().lastPathComponent)/\(url.lastPathComponent)" }

    /// The repository root, found from this file's path: Tests/MetadataTests/<this file>.
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every file in fuzz/seeds/<target>/ and fuzz/regressions/<target>/, dotfiles (.gitkeep) excepted.
    static func all(_ target: String) -> [FuzzInputFile] {
        ["seeds", "regressions"].flatMap { kind -> [FuzzInputFile] in
            let directory = repository.appendingPathComponent("fuzz/\(kind)/\(target)")
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            return names.filter { !$0.hasPrefix(".") }.sorted().map {
                FuzzInputFile(target: target, url: directory.appendingPathComponent($0))
            }
        }
    }

    /// Saved from a libFuzzer timeout ("timeout-…", "slow-unit-…"): the input must also be read quickly.
    var mustBeQuick: Bool {
        url.lastPathComponent.hasPrefix("timeout-") || url.lastPathComponent.hasPrefix("slow-unit-")
    }

    /// One read of a timeout regression may take this long: far more than a linear-time reader needs
    /// for such small inputs even in a debug build, far less than the quadratic walks they were saved for.
    static let timeBudget: Duration = .milliseconds(200)

    func bytes() throws -> [UInt8] {
        Array(try Data(contentsOf: url))
    }

    /// The format a name promises in its first or second dash-separated word
    /// ("seed-png-exif.png", "heif-iloc-overflow"), "none" for bytes that are no image; nil when it names none.
    var expectedFormat: ImageFormat?? {
        let words = url.deletingPathExtension().lastPathComponent.split(separator: "-").prefix(2)
        for word in words {
            if word == "none" { return .some(nil) }
            if let format = ImageFormat(rawValue: String(word)) { return .some(format) }
        }
        return nil
    }
}

/// Replays the kept fuzz inputs under the fuzzers' own invariants (MetadataFuzzChecks.swift):
/// a crash the fuzzer found, once copied to fuzz/regressions/<target>/, fails here until fixed.
@Suite("Fuzz regressions: metadata")
struct MetadataFuzzRegressionTests {
    @Test("the seed directories are found", arguments: ["metadata", "metadata-payload"])
    func seedsExist(target: String) {
        #expect(FuzzInputFile.all(target).count >= 5, "no seeds under \(FuzzInputFile.repository.path)/fuzz/seeds/\(target)")
    }

    @Test("whole files keep every reader invariant and the format their name gives", arguments: FuzzInputFile.all("metadata"))
    func metadata(_ input: FuzzInputFile) throws {
        let bytes = try input.bytes()
        let scratch = FuzzScratchFile()
        #expect(scratch != nil)
        #expect(MetadataFuzz.violations(in: bytes, scratch: scratch) == [])
        if let expected = input.expectedFormat {
            #expect(MetadataReader.read(bytes: bytes).format == expected)
        }
        if input.mustBeQuick {
            let elapsed = ThreadCPUTime.measure { _ = MetadataReader.read(bytes: bytes) }
            #expect(elapsed < FuzzInputFile.timeBudget, "one read took \(elapsed)")
        }
    }

    @Test("payloads keep every invariant in their container", arguments: FuzzInputFile.all("metadata-payload"))
    func payload(_ input: FuzzInputFile) throws {
        let bytes = try input.bytes()
        #expect(MetadataPayloadFuzz.violations(in: bytes, scratch: FuzzScratchFile()) == [])
        if input.mustBeQuick {
            let elapsed = ThreadCPUTime.measure { _ = MetadataPayloadFuzz.violations(in: bytes, scratch: nil) }
            #expect(elapsed < FuzzInputFile.timeBudget * 3, "the checks took \(elapsed)")
        }
    }

    @Test("every kept whole file reads the same through a file descriptor as from memory")
    func seedsFromDisk() throws {
        for input in FuzzInputFile.all("metadata") {
            let bytes = try input.bytes()
            let handle = try FileHandle(forReadingFrom: input.url)
            defer { try? handle.close() }
            let fromFile = MetadataReader.read(fileDescriptor: handle.fileDescriptor, fileSize: bytes.count)
            #expect(fromFile == MetadataReader.read(bytes: bytes), "\(input.testDescription)")
        }
    }
}
