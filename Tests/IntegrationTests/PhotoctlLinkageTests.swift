import Foundation
import PhotoTestSupport
import Testing

/// photoctl starts like a small C program (issue 16): it links Swift's standard library and
/// FoundationEssentials, never full Foundation, FoundationInternationalization or the 40 MB ICU
/// library, whose loading and relocation alone cost more than a `photoctl groups` may take.
@Suite struct PhotoctlLinkageTests {
    /// The libraries that only full Foundation brings.
    static let refused = ["libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so"]

    /// The shared libraries `executable` loads, directly or through another, as ldd names them.
    static func libraries(of executable: String) async throws -> [String] {
        let result = try await ProcessRunner.run("/usr/bin/ldd", [executable])
        #expect(result.status == 0, "\(result.stderr)")
        let names = result.stdout.split(separator: "\n").compactMap { line in
            line.split(whereSeparator: \.isWhitespace).first.map(String.init)
        }
        // Only a dynamically linked build (the one the tests run) says what it links.
        #expect(names.contains("libswiftCore.so"), "\(result.stdout)")
        return names
    }

    @Test func photoctlLinksNoFullFoundationAndNoICU() async throws {
        let libraries = try await Self.libraries(of: Binaries.photoctl)
        for library in Self.refused {
            #expect(!libraries.contains(library), "photoctl links \(library): \(libraries)")
        }
    }

    @Test func theCheckFindsFoundationWhereItIsLinked() async throws {
        // This test process imports full Foundation (its helpers run processes with it).
        let libraries = try await Self.libraries(of: FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        #expect(Self.refused.allSatisfy(libraries.contains), "\(libraries)")
    }
}
