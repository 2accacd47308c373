import Foundation
import PhotoTestSupport
import Testing

/// photod killed in the middle of an import: the photo never appears, under its name or in the
/// index, and the hidden temporary file the killed write left is removed at a later start.
@Suite(.serialized)
struct ImportCrashTests {
    /// The hidden temporary files in the staging folder (Imported) with their sizes.
    static func temporaries(_ daemon: DaemonHarness) -> [String: Int] {
        let folder = daemon.library + "/Imported"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var sizes: [String: Int] = [:]
        for name in names where name.hasPrefix(".photod-new-") {
            sizes[name] = (try? FileManager.default.attributesOfItem(atPath: folder + "/" + name))?[.size] as? Int
        }
        return sizes
    }

    @Test func photodKilledMidImportKeepsNothingAndSweepsTheTemporaryFileAtTheNextStart() async throws {
        let daemon = try DaemonHarness(trusted: [])
        try await daemon.start()
        let app = try ImportApp(socket: daemon.socket, directory: daemon.dir)
        _ = try await daemon.photoctl(["permissions", "allow", try await app.appID, "--level", "add"])
        let jpeg = JPEGFixture.make(exif: ExifFixture(description: "Cut short", dateTimeOriginal: "2021:07:04 10:30:00"))
        let photo = try daemon.dir.write("cut.jpg", jpeg)
        let half = jpeg.count / 2

        // The app passes a pipe holding half the photo and keeps its write end open: photod has
        // copied those bytes into its temporary file and is waiting for the rest.
        let importer = try StreamingProcess("/usr/bin/env", ["python3", app.script, daemon.socket, "import-pipe",
                                                             photo, "cut.jpg", "\(half)"],
                                            directory: daemon.dir, name: "import-pipe")
        defer { importer.end() }
        #expect(await importer.wait { $0.objects.contains { $0["written"] as? Int == half } }, "\(importer.stderr)")
        let copying = await eventually(within: 30) { Self.temporaries(daemon).values.contains(half) }
        try #require(copying, "photod copied the half it was given: \(Self.temporaries(daemon))")
        let temporary = try #require(Self.temporaries(daemon).keys.first)

        await daemon.kill()
        let left = (FileManager.default.enumerator(atPath: daemon.library)?.allObjects as? [String] ?? []).sorted()
        #expect(left == ["Imported", "Imported/" + temporary],
                "no photo under a name, no dated folder; only the hidden temporary file: \(left)")

        // Left alone past the sweep's safety age (LeftoverTemporaries.minimumAge, 15 minutes),
        // it goes at the next start's walk.
        try Backdate.set(daemon.library + "/Imported/" + temporary, secondsAgo: 16 * 60)
        try await daemon.start()
        #expect(Self.temporaries(daemon).isEmpty, "the temporary file is removed: \(Self.temporaries(daemon))")
        #expect(daemon.log.contains("removed 1 temporary files"), "one notice says so: \(daemon.log)")
        let status = try await daemon.photoctlJSON(["status"])
        #expect(status["assets"] as? Int == 0, "nothing of the cut import is in the index: \(status)")
    }
}
