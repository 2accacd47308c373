import Foundation
import Testing
import VarlinkCodegen

/// PhotoAPI/Generated is what varlink-codegen makes of the IDL now: the checked-in output is
/// never stale, so the wire types cannot drift from the interface photod serves.
@Suite struct GeneratedCodeTests {
    static let photoAPI = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/PhotoAPI")

    @Test func theCheckedInTypesAreWhatTheGeneratorMakesOfTheIDL() throws {
        let interfaces = Self.photoAPI.appendingPathComponent("interface")
        let names = try FileManager.default.contentsOfDirectory(atPath: interfaces.path)
            .filter { $0.hasSuffix(".varlink") }.sorted()
        let files = try Codegen.generate(
            try names.map { Codegen.Interface(fileName: $0, text: try Self.text(interfaces.appendingPathComponent($0))) },
            names: try Self.text(interfaces.appendingPathComponent(Codegen.namesFileName)))
        #expect(files.count == names.count)
        for (name, text) in files {
            let checkedIn = try Self.text(Self.photoAPI.appendingPathComponent("Generated").appendingPathComponent(name))
            #expect(checkedIn == text, "Generated/\(name) is stale: run swift run varlink-codegen")
        }
    }

    private static func text(_ url: URL) throws -> String {
        String(decoding: try Data(contentsOf: url), as: UTF8.self)
    }
}
