import Foundation
import PhotoTestSupport
import Testing

/// photod and photod-notify leave out Foundation's full and internationalization libraries and
/// the 40 MB ICU data library they bring (FoundationEssentials is all they use), so they start
/// and run without mapping it and the package stays small. photod-thumbnailer links no
/// Foundation at all. Checked on the built binaries with ldd, which lists what they load,
/// directly or through another library.
@Suite struct FoundationLinkageTests {
    static let forbidden = ["libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so"]

    @Test(arguments: ["photod", "photod-notify", "photod-thumbnailer"])
    func loadsNoFullFoundationAndNoICU(program: String) async throws {
        let path = Binaries.productsFolder.appendingPathComponent(program).path
        let result = try await ProcessRunner.run("/usr/bin/ldd", [path])
        try #require(result.status == 0, "ldd \(path): \(result.stderr)")
        let libraries = result.stdout.split(separator: "\n").compactMap { $0.split(whereSeparator: \.isWhitespace).first.map(String.init) }
        // The list is real: every Swift program loads the Swift runtime.
        #expect(libraries.contains("libswiftCore.so"), "\(result.stdout)")
        #expect(libraries.filter(Self.forbidden.contains) == [], "\(program) loads full Foundation")
    }
}
