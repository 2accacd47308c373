import Foundation
import PhotoTestSupport
import Testing

/// How photoctl says that photod does not take it for the library's owner: once, and for a
/// copy of photoctl, why.
@Suite(.serialized) struct OwnerRefusalTests {
    @Test func aCopiedPhotoctlSaysItIsNotTheOneBesidePhotod() async throws {
        let daemon = try DaemonHarness()
        try daemon.add("a.jpg", ThumbnailedPhoto.jpeg())
        try await daemon.start()
        let copy = daemon.dir.file("bin/photoctl")
        try FileManager.default.createDirectory(atPath: daemon.dir.file("bin"), withIntermediateDirectories: true)
        // Copied by cp, not by this process: a file this process has open for writing while
        // another test forks cannot be run ("Text file busy") until that child has exec'd.
        let copied = try await ProcessRunner.run("/bin/cp", [Binaries.photoctl, copy])
        try #require(copied.status == 0, "\(copied.stderr)")
        for arguments in [["permissions"], ["groups"], ["status"]] {
            let result = try await ProcessRunner.run(copy, arguments, environment: daemon.environment)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderr.contains("this photoctl (\(copy)) is not the one installed next to photod"),
                    "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("exe:\(copy)"), "it names the id to trust: \(result.stderr)")
        }
        // Acting as an app on purpose, the app's own refusal stands.
        let asApp = try await ProcessRunner.run(copy, ["groups", "--as-app"], environment: daemon.environment)
        #expect(asApp.status == 1 && asApp.stderr.contains("not authorized (notDetermined)"), "\(asApp.stderr)")
        #expect(!asApp.stderr.contains("installed next to photod"), "\(asApp.stderr)")
    }

    @Test func anOwnerOnlyRefusalSaysItOnce() async throws {
        let daemon = try DaemonHarness()
        try await daemon.start()
        let result = try await daemon.photoctl(["permissions", "--as-app"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("photoctl: ListApps is for the library's owner: run photoctl"), "\(result.stderr)")
        #expect(result.stderr.components(separatedBy: "owner").count == 2, "\"owner\" once: \(result.stderr)")
    }
}
