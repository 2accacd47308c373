import Testing
@testable import PhotoDaemon

/// A value or key of a config file echoed in an error is cut and escaped: a megabyte string
/// does not become a megabyte of message, and a newline in it does not start another line.
@Suite struct ConfigLongValueTests {
    private let files = ConfigText()
    /// Just under the 1 MiB a config file may have, with the key around it.
    private static let long = String(repeating: "x", count: 1_000_000)

    /// The whole message photod prints: one short line.
    private func expectShort(_ error: ConfigError?, _ size: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        let line = error.map(\.description) ?? ""
        #expect(!line.isEmpty && line.utf8.count < 400, "\(line.utf8.count) bytes", sourceLocation: sourceLocation)
        #expect(!line.contains("\n"), sourceLocation: sourceLocation)
        #expect(line.contains("… (\(size) bytes)"), "\(line)", sourceLocation: sourceLocation)
    }

    @Test func aLongValueIsCutWithItsSize() throws {
        expectShort(try files.problem("log_level = \"\(Self.long)\""), 1_000_000)
        expectShort(try files.problem("[groups]\ndescription_sources = [\"\(Self.long)\"]"), 1_000_000)
    }

    @Test func aLongKeyIsCutWithItsSize() throws {
        expectShort(try files.problem("\(Self.long) = 1"), 1_000_000)
        let half = String(Self.long.prefix(500_000))
        expectShort(try files.problem("\"\(half)\" = 1\n\"\(half)\" = 2"), 500_000)
    }

    @Test func aLongUnquotedValueIsCutWithItsSize() throws {
        expectShort(try files.problem("roots = \(Self.long)"), 1_000_000)
    }

    @Test func aNewlineInAValueIsEscaped() throws {
        let error = try #require(try files.problem("log_level = \"debug\\nphotod: ready\""))
        #expect(error.problem.contains("\"debug\\u{0A}photod: ready\" is not one of"), "\(error.problem)")
    }
}
