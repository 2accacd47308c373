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

    /// The first bytes of a PNG and of a JPEG, to tell which one a file is.
    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47]
    private static let jpegSignature: [UInt8] = [0xFF, 0xD8, 0xFF]

    @Test func theFilesExtensionNamesTheFormatWhateverTheCacheHolds() async throws {
        let (daemon, id) = try await daemonWithPhoto()
        // A decoded 256-px image fills the cache with its PNG copy.
        let first = daemon.dir.file("first.jpg")
        await #expect(try daemon.photoctl(["thumbnail", id, "-o", first]).status == 0)
        for (name, extra, signature) in [("again.jpg", [String](), Self.jpegSignature), ("again.png", [], Self.pngSignature),
                                          ("fast.jpg", ["--fast"], Self.jpegSignature), ("fast.png", ["--fast"], Self.pngSignature),
                                          ("noext", [], Self.jpegSignature), ("given.img", ["--format", "png"], Self.pngSignature)] {
            let output = daemon.dir.file(name)
            let result = try await daemon.photoctl(["thumbnail", id, "-o", output] + extra)
            #expect(result.status == 0, "\(name): \(result.stderr)")
            #expect(Array(try fileBytes(output).prefix(signature.count)) == signature, "\(name)")
        }
        // Piped, the default is JPEG too, with the cache copy there.
        let piped = try await ProcessRunner.run(
            "/bin/sh", ["-c", "\"$0\" thumbnail \"$1\" | head -c 3 | od -An -tx1", Binaries.photoctl, id],
            environment: daemon.environment)
        #expect(piped.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "ff d8 ff", "\(piped.stdout)")

        let mismatch = try await daemon.photoctl(["thumbnail", id, "-o", daemon.dir.file("m.png"), "--format", "jpeg"])
        #expect(mismatch.status == 2 && mismatch.stderr.contains("does not match the file's extension"), "\(mismatch.stderr)")
        let webp = try await daemon.photoctl(["thumbnail", id, "-o", daemon.dir.file("m.webp")])
        #expect(webp.status == 2 && webp.stderr.contains("name the file .jpg or .png"), "\(webp.stderr)")
    }

    /// A "camera raw" photod cannot decode that holds a JPEG preview: a JPEG whose main image
    /// is lossless (SOF3, as raws store sensor data), with an EXIF thumbnail, named .ARW.
    private static func undecodableRaw() -> [UInt8] {
        var bytes = ThumbnailedPhoto.jpeg("raw")
        // The main image's frame header is the last SOF0: the thumbnail's comes first, in APP1.
        if let sof = (2..<(bytes.count - 1)).last(where: { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 }) {
            bytes[sof + 1] = 0xC3
        }
        return bytes
    }

    @Test func aRawThatCannotBeDecodedSaysSoInWordsAndFastStillShowsItsPreview() async throws {
        let daemon = try DaemonHarness()
        try daemon.add("DSC01234.ARW", Self.undecodableRaw())
        try daemon.add("broken.jpg", Array(ThumbnailedPhoto.jpeg("raw").prefix(300)))
        try await daemon.start()
        let ids = try await daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)
        let raw = try #require(ids["DSC01234.ARW"])

        let decoded = try await daemon.photoctl(["thumbnail", raw, "-o", daemon.dir.file("hq.jpg")])
        #expect(decoded.status == 1)
        #expect(decoded.stderr.contains("this raw format (ARW) cannot be decoded here; its embedded preview is used with --fast"),
                "\(decoded.stderr)")
        #expect(!decoded.stderr.contains("VipsForeignLoad") && !decoded.stderr.contains("SOF"), "no decoder jargon: \(decoded.stderr)")
        // After the failed decode (the file has its fail/ marker now), --fast still reads the preview.
        let fast = try await daemon.photoctl(["thumbnail", raw, "--fast", "-o", daemon.dir.file("fast.jpg")])
        #expect(fast.status == 0, "\(fast.stderr)")
        #expect(try fileBytes(daemon.dir.file("fast.jpg")) == ThumbnailedPhoto.thumbnail)

        let broken = try #require(ids["broken.jpg"])
        let cut = try await daemon.photoctl(["thumbnail", broken, "-o", daemon.dir.file("b.jpg")])
        #expect(cut.status == 1 && cut.stderr.contains("this file cannot be decoded: it is damaged or cut short"), "\(cut.stderr)")
        let cutFast = try await daemon.photoctl(["thumbnail", broken, "--fast", "-o", daemon.dir.file("bf.jpg")])
        #expect(cutFast.status == 1)
        #expect(cutFast.stderr.contains("could not decode this file before") && cutFast.stderr.contains("no embedded preview"),
                "\(cutFast.stderr)")
    }
}
