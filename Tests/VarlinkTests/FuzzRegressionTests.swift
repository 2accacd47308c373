import Foundation
import PhotoTestSupport
import Testing

@testable import Varlink

/// One kept input of the `varlink` fuzz target: a committed seed or a saved finding.
struct VarlinkFuzzInputFile: Sendable, CustomTestStringConvertible {
    let url: URL

    var testDescription: String { "\(url.deletingLastPathComponent().lastPathComponent)/\(url.lastPathComponent)" }

    /// The repository root, found from this file's path: Tests/VarlinkTests/<this file>.
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every file in fuzz/seeds/varlink/ and fuzz/regressions/varlink/, dotfiles (.gitkeep) excepted.
    static var all: [VarlinkFuzzInputFile] {
        ["seeds", "regressions"].flatMap { kind -> [VarlinkFuzzInputFile] in
            let directory = repository.appendingPathComponent("fuzz/\(kind)/varlink")
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            return names.filter { !$0.hasPrefix(".") }.sorted().map {
                VarlinkFuzzInputFile(url: directory.appendingPathComponent($0))
            }
        }
    }

    /// Saved from a libFuzzer timeout ("timeout-…", "slow-unit-…"): the checks must also run quickly.
    var mustBeQuick: Bool {
        url.lastPathComponent.hasPrefix("timeout-") || url.lastPathComponent.hasPrefix("slow-unit-")
    }

    func bytes() throws -> [UInt8] {
        Array(try Data(contentsOf: url))
    }

    /// The second dash-separated word of the name: "valid", "toolarge" or "badcall" (see fuzz/README.md).
    var kind: String? {
        let words = url.lastPathComponent.split(separator: "-")
        return words.count >= 2 ? String(words[1]) : nil
    }
}

/// Replays the kept varlink fuzz inputs under the fuzzer's own invariants (FramingFuzzChecks.swift).
@Suite("Fuzz regressions: varlink framing")
struct VarlinkFuzzRegressionTests {
    @Test("the seed directory is found")
    func seedsExist() {
        #expect(VarlinkFuzzInputFile.all.count >= 3, "no seeds under \(VarlinkFuzzInputFile.repository.path)/fuzz/seeds/varlink")
    }

    @Test("kept inputs keep every framing and parsing invariant", arguments: VarlinkFuzzInputFile.all)
    func invariants(_ input: VarlinkFuzzInputFile) throws {
        let data = try input.bytes()
        #expect(VarlinkFramingFuzz.violations(in: data) == [])
        if input.mustBeQuick {
            // Inputs are at most 64 KiB: a second is far beyond linear work on them, even in a debug build.
            let elapsed = ThreadCPUTime.measure { _ = VarlinkFramingFuzz.violations(in: data) }
            #expect(elapsed < .seconds(1), "the checks took \(elapsed)")
        }

        // What the name promises: valid streams frame and parse cleanly, the others fail where they say.
        let decoded = VarlinkFuzzInput(data)
        let outcome = VarlinkFramingFuzz.reference(decoded.stream, limit: decoded.limit)
        let parsed = outcome.frames.map { frame in
            Result { () throws(VarlinkProtocolError) in try VarlinkCall.parse(frame) }
        }
        let parseFailures = parsed.filter { if case .failure = $0 { true } else { false } }.count
        switch input.kind {
        case "valid":
            #expect(outcome.error == nil)
            #expect(parseFailures == 0)
        case "toolarge":
            #expect(outcome.error == .messageTooLarge(limit: decoded.limit))
        case "badcall":
            #expect(outcome.error == nil)
            #expect(parseFailures > 0)
        default:
            break
        }
    }
}
