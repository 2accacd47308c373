import Foundation
import PhotoTestSupport
import Testing

/// The first slice end to end: photod indexes a library, photoctl asks what is there.
@Suite(.serialized) struct IndexingTests {
    @Test func photosAreFiledIntoGroupsByDescription() async throws {
        let daemon = try DaemonHarness()
        try daemon.add("2021/07/a.jpg", Photo.jpeg("Beach Trip"))
        try daemon.add("2021/07/b.jpg", Photo.jpeg("  Beach   Trip\n"))
        try daemon.add("2021/08/deep/c.JPG", Photo.jpeg("Beach Trip"))
        try daemon.add("2021/08/d.jpg", Photo.jpeg("Caf\u{E9}"))
        try daemon.add("2021/08/e.jpg", Photo.jpeg(bytes: [0x43, 0x61, 0x66, 0xE9]))  // Latin-1 "Café"
        try daemon.add("no-description.jpg", Photo.jpeg(nil))
        try daemon.add("camera-default.jpg", Photo.jpeg("OLYMPUS DIGITAL CAMERA         "))
        try daemon.add("blank.jpg", Photo.jpeg(String(repeating: " ", count: 31)))
        try daemon.add("no-exif.jpg", JPEGFixture.make(exif: nil))
        try await daemon.start()

        let groups = try await daemon.photoctlJSON(["groups"])
        #expect(groups.groupCounts == ["Beach Trip": 3, "Café": 2, "Other": 4])
        let fallback = (groups["groups"] as? [[String: Any]])?.first { $0["name"] as? String == "Other" }
        #expect(fallback?["fallback"] as? Bool == true)

        let beach = try await daemon.photoctlJSON(["list", "Beach Trip"])
        #expect(Set(beach.ids(relativeTo: daemon.library).keys) == ["2021/07/a.jpg", "2021/07/b.jpg", "2021/08/deep/c.JPG"])
        let raw = beach.assets.compactMap { $0["description"] as? String }
        #expect(raw.contains("  Beach   Trip\n"), "the description is reported as read, before normalization")

        let table = try await daemon.photoctl(["groups"])
        #expect(table.status == 0)
        #expect(table.stdout.contains("Beach Trip"))
        #expect(table.stdout.contains("Other (no description)"))
    }

    @Test func showReportsWhatTheFileSays() async throws {
        let daemon = try DaemonHarness()
        try daemon.add("p.jpg", JPEGFixture.make(exif: ExifFixture(
            description: "Garden", dateTimeOriginal: "2020:05:17 08:09:10", offsetTimeOriginal: "+02:00",
            orientation: 6, make: "NIKON CORPORATION   ", model: "NIKON D750"), width: 640, height: 480))
        try await daemon.start()
        let listed = try await daemon.photoctlJSON(["list"])
        let id = try #require(listed.assets.first?["id"] as? String)
        let shown = try await daemon.photoctlJSON(["show", id])
        let asset = try #require(shown.assets.first)
        #expect(asset["group"] as? String == "Garden")
        #expect(asset["descriptionSource"] as? String == "exif")
        #expect(asset["format"] as? String == "jpeg")
        #expect(asset["taken"] as? String == "2020-05-17T08:09:10+02:00")
        #expect(asset["orientation"] as? Int == 6)
        #expect(asset["make"] as? String == "NIKON CORPORATION")
        #expect(asset["model"] as? String == "NIKON D750")
        #expect(asset["width"] as? Int == 640)
        #expect(asset["height"] as? Int == 480)
        #expect(asset["path"] as? String == daemon.library + "/p.jpg")
        #expect((asset["size"] as? Int ?? 0) > 0)
        #expect((asset["modified"] as? String)?.hasSuffix("Z") == true)
        #expect(shown["missing"] as? [String] == [])

        let missing = try await daemon.photoctl(["show", id, "nosuchid"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("nosuchid"))
    }

    @Test func oddFilesNeitherBlockNorCrashNorGetLost() async throws {
        let daemon = try DaemonHarness()
        try daemon.add("good.jpg", Photo.jpeg("Good"))
        try daemon.add("zero.jpg", [])
        try daemon.add("truncated.jpg", Array(Photo.jpeg("Cut").prefix(40)))
        try daemon.add("garbage.jpg", (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7919) })
        try daemon.add("notes.txt", Array("not a photo".utf8))
        try daemon.add(".hidden.jpg", Photo.jpeg("Hidden"))
        #expect(mkfifo(daemon.library + "/fifo.jpg", 0o644) == 0)
        #expect(symlink("/etc/hostname", daemon.library + "/link.jpg") == 0)
        try await daemon.start(timeout: 30)

        let paths = await Set(try daemon.photoctlJSON(["list", "--sort", "path"]).ids(relativeTo: daemon.library).keys)
        #expect(paths.isSuperset(of: ["good.jpg", "zero.jpg", "truncated.jpg", "garbage.jpg"]))
        #expect(!paths.contains("notes.txt"))
        #expect(!paths.contains("fifo.jpg"))
        #expect(!paths.contains("link.jpg"))
        #expect(!paths.contains(".hidden.jpg"))
        let groups = try await daemon.photoctlJSON(["groups"]).groupCounts
        #expect(groups["Good"] == 1)
        #expect(daemon.isRunning)
    }

    @Test func aFileNameThatIsNotUTF8RoundTripsThroughPathBytes() async throws {
        let daemon = try DaemonHarness()
        let name = Array((daemon.library + "/caf").utf8) + [0xE9] + Array(".jpg".utf8)
        try RawFile.write(path: name, contents: Photo.jpeg("Odd name"))
        try await daemon.start()
        let asset = try #require(try await daemon.photoctlJSON(["list", "Odd name"]).assets.first)
        #expect(asset["path"] as? String == daemon.library + "/caf\u{FFFD}.jpg")
        let bytes = try #require((asset["pathBytes"] as? String).flatMap { Data(base64Encoded: $0) })
        #expect(Array(bytes) == name)
    }
}
