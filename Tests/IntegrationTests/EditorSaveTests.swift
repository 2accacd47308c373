import Foundation
import PhotoTestSupport
import Testing

/// Editors save in place through a temporary file in the photo's folder, renamed over the photo
/// when complete: subscribers must see one update of the photo's id with its new metadata, never
/// a phantom photo inserted and removed, nor the photo removed and inserted under a new id.
@Suite(.serialized) struct EditorSaveTests {
    /// A library of one photo, "photo.jpg" in group "Before", with its id.
    private func start() async throws -> (live: Live, id: String) {
        let live = try await Live.start(files: ["photo.jpg": "Before"])
        return await (live, try #require(try live.index()["photo.jpg"]))
    }

    /// Waits for the update of `id`, then past anything that would follow it (`Live.barrier`), and
    /// checks that it was the only change and that the photo is now in `group`.
    private func expectOneUpdate(of id: String, in live: Live, group: String = "After",
                                 sourceLocation: SourceLocation = #_sourceLocation) async throws {
        #expect(try await live.recorder.wait { $0.updated.contains(id) }, sourceLocation: sourceLocation)
        let barrier = try await live.barrier()
        #expect(live.recorder.inserted == [barrier], "no phantom photo", sourceLocation: sourceLocation)
        #expect(live.recorder.removed.isEmpty, sourceLocation: sourceLocation)
        #expect(live.recorder.updated == [id], sourceLocation: sourceLocation)
        await #expect(try live.index() == ["photo.jpg": id, Live.barrierName: barrier], sourceLocation: sourceLocation)
        let shown = try await live.daemon.photoctlJSON(["show", id]).assets.first
        #expect(shown?["group"] as? String == group, sourceLocation: sourceLocation)
    }

    /// The temporary names of ExifTool (`NAME_exiftool_tmp`, and one with an image extension),
    /// `sed -i` (`sedXXXXXX`), Python's tempfile (`tmpXXXXXXXX.jpg`), mkstemp or Qt's QSaveFile
    /// after the photo's name (`NAME.XXXXXX`) and a `.tmp` suffix. The temporary file is
    /// complete and closed for 50 ms before the rename: long enough for photod to see it alone.
    @Test(arguments: ["photo.jpg_exiftool_tmp", "photo_exiftool_tmp.jpg", "sedX7kQ2p", "tmpa8_k2m9q.jpg",
                      "photo.jpg.Zq81Ka", "photo.jpg.tmp"])
    func aTemporaryFileRenamedOverThePhotoIsOneUpdate(temporary: String) async throws {
        let (live, id) = try await start()
        try live.write(temporary, "After")
        try await Task.sleep(for: .milliseconds(50))
        #expect(rename(live.library + "/" + temporary, live.library + "/photo.jpg") == 0)
        try await expectOneUpdate(of: id, in: live)
    }

    @Test func exifToolOverwritingTheOriginalIsOneUpdate() async throws {
        let (live, id) = try await start()
        let result = try await ProcessRunner.run(
            "/usr/bin/exiftool", ["-q", "-overwrite_original", "-ImageDescription=After", live.library + "/photo.jpg"])
        #expect(result.status == 0, "\(result.stderr)")
        try await expectOneUpdate(of: id, in: live)
    }

    /// Without -overwrite_original ExifTool renames the photo NAME_original and puts the edited
    /// file in its place: the photo keeps its id with the new metadata, and the backup, which
    /// `[library] ignore` leaves out by default, never becomes a photo of the library.
    @Test func exifToolKeepingABackupUpdatesThePhotoAndIgnoresTheBackup() async throws {
        let (live, id) = try await start()
        let result = try await ProcessRunner.run("/usr/bin/exiftool", ["-q", "-ImageDescription=After", live.library + "/photo.jpg"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: live.library + "/photo.jpg_original"))
        try await expectOneUpdate(of: id, in: live)
        await #expect(try live.daemon.photoctlJSON(["groups"]).groupCounts == ["After": 1, "Barrier": 1])
    }

    /// GNU sed writes `sedXXXXXX` next to the file and renames it over; the description is
    /// replaced by one of the same length, so the EXIF block stays valid.
    @Test func sedInPlaceIsOneUpdate() async throws {
        let (live, id) = try await start()
        let result = try await ProcessRunner.run("/usr/bin/sed", ["-i", "s/Before/After!/", live.library + "/photo.jpg"])
        #expect(result.status == 0, "\(result.stderr)")
        try await expectOneUpdate(of: id, in: live, group: "After!")
    }

    /// GLib's g_file_replace (GIMP, Eye of GNOME, every GIO program) writes `.goutputstream-XXXXXX`.
    @Test func gioReplacingThePhotoIsOneUpdate() async throws {
        let (live, id) = try await start()
        let source = try live.daemon.dir.write("after.jpg", Photo.jpeg("After"))
        let result = try await ProcessRunner.run("/bin/sh", ["-c", "gio save \"$1\" < \"$2\"", "sh",
                                                       live.library + "/photo.jpg", source])
        #expect(result.status == 0, "\(result.stderr)")
        try await expectOneUpdate(of: id, in: live)
    }

    /// Runs the Python `script` (argv: a JPEG of "After", the library) over a library of a.jpg,
    /// b.jpg and c.jpg in "Before", and checks that each photo was only updated, keeping its id.
    private func expectOnlyUpdates(savingWith script: String,
                                   sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let live = try await Live.start(files: ["a.jpg": "Before", "b.jpg": "Before", "c.jpg": "Before"])
        let before = try await live.index()
        let source = try live.daemon.dir.write("after.jpg", Photo.jpeg("After"))
        let result = try await ProcessRunner.run("/usr/bin/python3", ["-c", script, source, live.library])
        #expect(result.status == 0, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(try await live.recorder.wait { Set($0.updated) == Set(before.values) }, sourceLocation: sourceLocation)
        let barrier = try await live.barrier()
        #expect(live.recorder.inserted == [barrier] && live.recorder.removed.isEmpty, sourceLocation: sourceLocation)
        await #expect(try live.index() == before.merging([Live.barrierName: barrier]) { $1 }, sourceLocation: sourceLocation)
        await #expect(try live.daemon.photoctlJSON(["groups"]).groupCounts == ["After": 3, "Barrier": 1], sourceLocation: sourceLocation)
    }

    /// Python's tempfile with an image suffix (`tmpXXXXXXXX.jpg`), renamed over a photo a
    /// couple of milliseconds after it is closed, for three photos in a row.
    @Test func aTempfileJPEGRenamedOverMillisecondsLaterIsOneUpdateEachTime() async throws {
        try await expectOnlyUpdates(savingWith: """
            import os, sys, tempfile, time
            data = open(sys.argv[1], "rb").read()
            for name in ("a.jpg", "b.jpg", "c.jpg"):
                with tempfile.NamedTemporaryFile(dir=sys.argv[2], suffix=".jpg", delete=False) as f:
                    f.write(data)
                time.sleep(0.002)
                os.replace(f.name, os.path.join(sys.argv[2], name))
            """)
    }

    /// A file with a temporary name that stays is a photo like any other, only announced later.
    @Test func aTemporaryNameThatStaysIsStillIndexed() async throws {
        let live = try await Live.start()
        try live.write("tmpk2m9q0a1.jpg", "Kept")
        #expect(try await live.recorder.wait { $0.inserted.count == 1 })
        await #expect(try live.index().keys.sorted() == ["tmpk2m9q0a1.jpg"])
    }
}
