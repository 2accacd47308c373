import Foundation
import PhotoTestSupport
import Testing

/// `photoctl thumbnail` against the real photod: the embedded thumbnail (no worker needed),
/// into a file or a pipe, never over an existing file without --force.
@Suite(.serialized) struct ThumbnailCommandTests {
    /// A started daemon over one photo with an EXIF thumbnail, and that photo's id.
    private func daemonWithPhoto() async throws -> (DaemonHarness, String) {
        let daemon = try DaemonHarness()
        try daemon.add("a.jpg", ThumbnailedPhoto.jpeg())
        try await daemon.start()
        let id = try #require(try await daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)["a.jpg"])
        return (daemon, id)
    }

    @Test func fastWritesTheEmbeddedThumbnailToTheFile() async throws {
        let (daemon, id) = try await daemonWithPhoto()
        let output = daemon.dir.file("thumb.jpg")
        let result = try await daemon.photoctl(["thumbnail", id, "--fast", "-o", output])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try fileBytes(output) == ThumbnailedPhoto.thumbnail)
        #expect(result.stdout.contains("160×120 jpeg"))
        #expect(result.stdout.contains("embedded"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: daemon.dir.path).filter { $0.contains("photoctl-") }
        #expect(leftovers.isEmpty, "no temporary file stays behind")
    }

    @Test func jsonPrintsTheFactsWithoutTheData() async throws {
        let (daemon, id) = try await daemonWithPhoto()
        let output = daemon.dir.file("thumb.jpg")
        let facts = try await daemon.photoctlJSON(["thumbnail", id, "--fast", "-o", output])
        #expect(facts["source"] as? String == "embedded")
        #expect(facts["width"] as? Int == 160)
        #expect(facts["bytes"] as? Int == ThumbnailedPhoto.thumbnail.count)
        #expect(facts["data"] == nil)
    }

    @Test func withoutOutputTheBytesGoDownAPipe() async throws {
        let (daemon, id) = try await daemonWithPhoto()
        let output = daemon.dir.file("piped.jpg")
        // `| cat`: photoctl's standard output is a pipe, as in `photoctl thumbnail ID | viewer`.
        let result = try await ProcessRunner.run(
            "/bin/sh", ["-c", "\"$0\" thumbnail \"$1\" --fast | cat > \"$2\"", Binaries.photoctl, id, output],
            environment: daemon.environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try fileBytes(output) == ThumbnailedPhoto.thumbnail)
        #expect(result.stderr.contains("embedded"), "the facts go to standard error, away from the image")
    }

    @Test(arguments: ["4096", "0", "-3"])
    func aSizeOutside1To2048IsAUsageError(size: String) async throws {
        let result = try await ProcessRunner.run(Binaries.photoctl, ["thumbnail", "abc", "--size=\(size)", "-o", "/dev/null"],
                                           environment: ["PHOTOD_SOCKET": "/nonexistent"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--size"))
    }

    @Test func anUnknownIdExits1NamingIt() async throws {
        let (daemon, _) = try await daemonWithPhoto()
        let output = daemon.dir.file("none.jpg")
        let result = try await daemon.photoctl(["thumbnail", "00000000deadbeef", "--fast", "-o", output])
        #expect(result.status == 1)
        #expect(result.stderr.contains("00000000deadbeef"))
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func anExistingFileIsLeftAloneWithoutForceAndReplacedWithIt() async throws {
        let (daemon, id) = try await daemonWithPhoto()
        let output = try daemon.dir.write("mine.jpg", Array("mine".utf8))
        let refused = try await daemon.photoctl(["thumbnail", id, "--fast", "-o", output])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("already exists"))
        #expect(try fileBytes(output) == Array("mine".utf8))
        let forced = try await daemon.photoctl(["thumbnail", id, "--fast", "-o", output, "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try fileBytes(output) == ThumbnailedPhoto.thumbnail)
    }
}
