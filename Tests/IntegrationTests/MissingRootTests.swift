import Foundation
import PhotoTestSupport
import Testing

/// A configured root that is not there at start (issue 30), through the real photod and photoctl:
/// one the index never had photos under is a mistake to point out, with the folder probably meant;
/// one whose photos are indexed is a drive or folder away, and its photos are kept.
@Suite(.serialized) struct MissingRootTests {
    @Test func aMistypedRootIsSaidNotToExistWithTheFolderMeant() async throws {
        let probe = try TemporaryDirectory()
        let meant = probe.file("Pictures")
        let typed = probe.file("Pictres")
        try FileManager.default.createDirectory(atPath: meant, withIntermediateDirectories: true)
        let daemon = try DaemonHarness(arguments: ["--root", typed, "--root", probe.file("Zzqx")])
        try daemon.add("a.jpg", Photo.jpeg("A"))
        try await daemon.start()

        let problems = try await daemon.photoctlJSON(["status"])["problems"] as? [String] ?? []
        #expect(problems.contains("root \(typed) does not exist; did you mean \(meant)?"), "\(problems)")
        #expect(problems.contains("root \(probe.file("Zzqx")) does not exist"), "nothing near it: \(problems)")
        #expect(!problems.contains { $0.contains("photos are kept") }, "\(problems)")
        let text = try await daemon.photoctl(["status"])
        #expect(text.stdout.contains("Problem: root \(typed) does not exist; did you mean \(meant)?\n"), "\(text.stdout)")
        #expect(await daemon.logContains("root \(typed) does not exist; did you mean \(meant)?"), "\(daemon.log)")
    }

    @Test func aRootWhosePhotosAreIndexedKeepsThemWhenItIsAwayAtStart() async throws {
        let daemon = try DaemonHarness()
        try daemon.add("a.jpg", Photo.jpeg("A"))
        try await daemon.start()
        await #expect(daemon.stop() == 0)
        try FileManager.default.moveItem(atPath: daemon.library, toPath: daemon.dir.file("elsewhere"))
        try await daemon.start()

        let status = try await daemon.photoctlJSON(["status"])
        #expect(status["assets"] as? Int == 1)
        let problems = status["problems"] as? [String] ?? []
        #expect(problems == ["root \(daemon.library) is missing or not a folder; its photos are kept"], "\(problems)")
    }
}
