import Foundation
import PhotoTestSupport
import Testing
@testable import TOML

/// Hostile text: the parser answers every input with a table or an error inside the text, never
/// a crash, and its tables survive being written back (TOMLFuzzChecks.swift, as the fuzzer checks).
@Suite struct TOMLHostileTests {
    /// The repository's config/photod.toml, found from this source file.
    static let shippedConfig: [UInt8] = {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("config/photod.toml").path
        return (FileManager.default.contents(atPath: path)).map { Array($0) } ?? []
    }()

    @Test func theShippedConfigParsesAndSurvivesWritingBack() throws {
        #expect(Self.shippedConfig.count > 1000)
        #expect(TOMLFuzz.violations(in: Self.shippedConfig) == [])
        let table = try TOMLParser.parse(String(decoding: Self.shippedConfig, as: UTF8.self))
        #expect(table["groups"]?.table?["boilerplate"]?.array?.count == 26)
    }

    @Test func deepNestingIsRefusedNotRecursedInto() throws {
        let deep = "x = " + String(repeating: "[", count: 100_000)
        let error = try #require(throws: TOMLError.self) { try TOMLParser.parse(deep) }
        #expect(error.problem.contains("nested more than 32 deep"))
        let limit = "x = " + String(repeating: "[", count: 32) + String(repeating: "]", count: 32)
        #expect(try TOMLParser.parse(limit)["x"] != nil)
        let tooDeep = "x = " + String(repeating: "[", count: 33) + String(repeating: "]", count: 33)
        #expect(throws: TOMLError.self) { try TOMLParser.parse(tooDeep) }
        let longKey = Array(repeating: "a", count: 100_000).joined(separator: ".") + " = 1"
        #expect(throws: TOMLError.self) { try TOMLParser.parse(longKey) }
        let longHeader = "[" + Array(repeating: "a", count: 100_000).joined(separator: ".") + "]"
        #expect(throws: TOMLError.self) { try TOMLParser.parse(longHeader) }
        // The deepest tables a header and a dotted key under it can make.
        let parts = Array(repeating: "t", count: 32).joined(separator: ".")
        #expect(try TOMLParser.parse("[\(parts)]\n\(parts) = 1").keys == ["t"])
    }

    @Test func bigInputsParse() throws {
        let long = String(repeating: "é", count: 1 << 20)
        #expect(try TOMLParser.parse("x = \"\(long)\"")["x"]?.string == long)
        let many = (0..<50_000).map { "k\($0) = \($0)" }.joined(separator: "\n")
        #expect(try TOMLParser.parse(many).keys.count == 50_000)
        let wide = "x = [" + String(repeating: "1, ", count: 100_000) + "]"
        #expect(try TOMLParser.parse(wide)["x"]?.array?.count == 100_000)
    }

    @Test func everyControlCharacterAndOddByteIsHandled() {
        for byte in UInt8.min...UInt8.max {
            for template in ["x = \"a?b\"", "x = 'a?b'", "x = 1 #?", "?", "x = [1?2]", "[a?b]", "a?b = 1"] {
                let bytes = Array(template.utf8).map { $0 == UInt8(ascii: "?") ? byte : $0 }
                #expect(TOMLFuzz.violations(in: bytes) == [], "\(template) with \(byte)")
            }
        }
    }

    @Test func mutationsOfTheShippedConfig() {
        var random = SplitMix64(seed: 16)
        let special = Array("[]{}\"'\\=.,#\n\r\t _-+:0123456789xobeEtruefalsinn\u{0}\u{7F}".utf8) + [0xC3, 0xA9, 0xFF]
        var failures: [String] = []
        for round in 0..<4000 {
            var bytes = Self.shippedConfig
            for _ in 0..<(1 + random.below(4)) {
                let at = random.below(bytes.count + 1)
                switch random.below(4) {
                case 0 where at < bytes.count: bytes.remove(at: at)
                case 1 where at < bytes.count: bytes[at] = special[random.below(special.count)]
                case 2: bytes.insert(special[random.below(special.count)], at: at)
                default: bytes = Array(bytes.prefix(at))
                }
            }
            let problems = TOMLFuzz.violations(in: bytes)
            if !problems.isEmpty { failures.append("round \(round): \(problems)") }
        }
        #expect(failures == [])
    }
}

/// The kept fuzz inputs (fuzz/seeds/toml, fuzz/regressions/toml) under the fuzzer's own checks.
@Suite struct TOMLFuzzRegressionTests {
    @Test func keptFuzzInputs() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("fuzz")
        var seen = 0
        for kind in ["seeds/toml", "regressions/toml"] {
            let path = folder.appendingPathComponent(kind).path
            for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] where !name.hasPrefix(".") {
                let data = try #require(FileManager.default.contents(atPath: path + "/" + name))
                #expect(TOMLFuzz.violations(in: Array(data)) == [], "\(kind)/\(name)")
                seen += 1
            }
        }
        #expect(seen > 0)
    }
}

extension SplitMix64 {
    /// A number in 0..<bound (bound > 0).
    mutating func below(_ bound: Int) -> Int { Int.random(in: 0..<bound, using: &self) }
}
