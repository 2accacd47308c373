import Foundation
import PhotoClient
import PhotoTestSupport
import Testing

/// photoctl describe against the real photod: the description is written into a JPEG with
/// nothing else in it changed (ExifTool is the judge), into a sidecar for other formats, the
/// asset keeps its id and moves group in one update, and a file that cannot be written says why.
@Suite(.serialized)
struct DescribeTests {
    /// `exiftool -a -G1 -s -n` of `path`, without the lines that name the file system's facts.
    static func tags(_ path: String) async throws -> [String] {
        let result = try await ProcessRunner.run("/usr/bin/exiftool", ["-a", "-G1", "-s", "-n", path])
        return result.stdout.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("[System]") }
    }

    @Test func aJPEGGetsItsDescriptionInPlaceKeepsItsIdAndMovesGroupInOneUpdate() async throws {
        let daemon = try DaemonHarness()
        let path = try daemon.add("trip/a.jpg", JPEGFixture.make(exif: ExifFixture(
            description: "Beach", dateTimeOriginal: "2021:07:04 10:30:00", make: "Canon", model: "EOS"), width: 32, height: 24))
        try await daemon.start()
        let client = try await PhotoClient.connect(socketPath: daemon.socket)
        let id = try #require(try await client.allAssets(group: nil).first?.id)
        let changes = try await ChangeRecorder.start(socket: daemon.socket)
        let before = try await Self.tags(path)
        let imageBefore = try Data(contentsOf: URL(fileURLWithPath: path))

        let result = try await daemon.photoctl(["describe", path, "Harbour at dusk"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(id) && result.stdout.contains("Harbour at dusk"), "\(result.stdout)")
        let after = try await Self.tags(path)
        let changed = Set(after).symmetricDifference(before).map { $0.split(separator: " ").prefix(2).joined(separator: " ") }
        #expect(Set(changed) == ["[IFD0] ImageDescription"], "only the description changed: \(changed)")
        #expect(after.contains { $0.hasPrefix("[IFD0]") && $0.hasSuffix(": Harbour at dusk") }, "\(after)")
        // The image data is byte-identical: everything from the first SOS on.
        let imageAfter = try Data(contentsOf: URL(fileURLWithPath: path))
        let sos = Data([0xFF, 0xDA])
        let scanBefore = try #require(imageBefore.range(of: sos))
        let scanAfter = try #require(imageAfter.range(of: sos))
        #expect(imageBefore[scanBefore.lowerBound...] == imageAfter[scanAfter.lowerBound...])

        let asset = try #require(try await client.getAssets(ids: [id]).assets.first)
        #expect(asset.group == "Harbour at dusk")
        #expect(try await changes.wait { $0.updated.contains(id) })
        #expect(changes.inserted.isEmpty && changes.removed.isEmpty, "one update, not a remove and an insert")
        changes.stop()
        await client.close()

        let cleared = try await daemon.photoctl(["describe", "--clear", id])
        #expect(cleared.status == 0, "\(cleared.stderr)")
        #expect(cleared.stdout.contains("Other"), "\(cleared.stdout)")
    }

    @Test func anotherFormatGetsASidecarAndThePhotoIsNotTouched() async throws {
        let daemon = try DaemonHarness()
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + [0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0] + [0x90, 0x77, 0x53, 0xDE]
            + [0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]
        let path = try daemon.add("shots/s.png", png)
        try await daemon.start()
        let result = try await daemon.photoctl(["describe", path, "Screens"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.contents(atPath: path) == Data(png), "the photo is not touched")
        let sidecar = path + ".xmp"
        let read = try await ProcessRunner.run("/usr/bin/exiftool", ["-s3", "-XMP-dc:Description", sidecar])
        #expect(read.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "Screens", "\(read.stdout) \(read.stderr)")
        let shown = try await daemon.photoctlJSON(["show", path])
        let asset = try #require((shown["assets"] as? [[String: Any]])?.first)
        #expect(asset["group"] as? String == "Screens")
        #expect(asset["descriptionSource"] as? String == "sidecar")
    }

    @Test func aReadOnlyPhotoIsRefusedAndLeftAsItWas() async throws {
        let daemon = try DaemonHarness()
        let path = try daemon.add("a.jpg", JPEGFixture.make(exif: ExifFixture(description: "Beach")))
        chmod(path, 0o444)
        try await daemon.start()
        let before = FileManager.default.contents(atPath: path)
        let result = try await daemon.photoctl(["describe", path, "Harbour"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("read-only"), "\(result.stderr)")
        #expect(FileManager.default.contents(atPath: path) == before)
        let missing = try await daemon.photoctl(["describe", "nosuchid", "Harbour"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("nosuchid"), "\(missing.stderr)")
    }
}
