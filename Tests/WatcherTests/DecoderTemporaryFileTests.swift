import Testing
@testable import Watcher

@Suite("Decoder: editors' temporary files")
struct DecoderTemporaryFileTests {
    @Test(arguments: ["photo.jpg_exiftool_tmp", "PHOTO.JPG_EXIFTOOL_TMP", "photo_exiftool_tmp.jpg", "sedX7kQ2p",
                      "tmpa8_k2m9q", "tmpa8_k2m9q.jpg", "photo.jpg.Zq81Ka", "photo.jpg.tmp", "photo.JPG.TEMP",
                      "photo.jpg.part", "photo.jpg.crdownload", "photo.jpg.digikamtempfile.aB12cD.jpg"])
    func temporaryNamesAreRecognised(name: String) {
        #expect(TemporaryName.isTemporary(p(name)))
    }

    @Test(arguments: ["photo.jpg", "IMG_0001.JPG", "sed.jpg", "sedona.jpg", "sedX7kQ2p.jpg", "sedX7kQ2", "tmp.jpg",
                      "tmpfile01.jpg", "tmpA8K2M9Q1.jpg", "2024.07.04.jpg", "trip.photo.jpeg", ".tmp", "photo..Zq81Ka",
                      "photo.Zq81Ka", "temp.jpg", "part.jpg"])
    func ordinaryNamesAreNot(name: String) {
        #expect(!TemporaryName.isTemporary(p(name)))
    }

    @Test func aTemporaryFileRenamedOverAPhotoIsOnlyTheRename() {
        var fixture = DecoderFixture()
        let written = fixture.decode([
            event(1, WatchMask.create, "photo.jpg_exiftool_tmp"),
            event(1, WatchMask.closeWrite, "photo.jpg_exiftool_tmp"),
        ])
        #expect(written == [.fileLinked(p("/lib/photo.jpg_exiftool_tmp"))], "the write is held")
        #expect(fixture.decoder.nextDeadline == DecoderFixture.start + SettlingFiles.grace)
        let renamed = fixture.decode([
            event(1, WatchMask.movedFrom, "photo.jpg_exiftool_tmp", cookie: 5),
            event(1, WatchMask.movedTo, "photo.jpg", cookie: 5),
        ], at: .milliseconds(40))
        #expect(renamed == [.fileMoved(from: p("/lib/photo.jpg_exiftool_tmp"), to: p("/lib/photo.jpg"))])
        #expect(fixture.decoder.nextDeadline == nil)
        #expect(fixture.expire(at: .seconds(2)).isEmpty)
    }

    /// ExifTool without -overwrite_original: the photo is renamed NAME_original, then the edited
    /// file over NAME. The two renames can reach photod in two reads (a loaded machine); they
    /// must come out together, or the photo's id follows the backup and the edit is a new photo.
    @Test func exifToolsTwoRenamesComeOutTogetherWhenTheyArriveApart() {
        var fixture = DecoderFixture()
        _ = fixture.decode([event(1, WatchMask.create, "photo.jpg_exiftool_tmp"),
                            event(1, WatchMask.closeWrite, "photo.jpg_exiftool_tmp")])
        let backup = fixture.decode([
            event(1, WatchMask.movedFrom, "photo.jpg", cookie: 6),
            event(1, WatchMask.movedTo, "photo.jpg_original", cookie: 6),
        ], at: .milliseconds(30))
        #expect(backup.isEmpty, "the backup waits for the file that takes the photo's place")
        let edited = fixture.decode([
            event(1, WatchMask.movedFrom, "photo.jpg_exiftool_tmp", cookie: 7),
            event(1, WatchMask.movedTo, "photo.jpg", cookie: 7),
        ], at: .milliseconds(300))
        #expect(edited == [.fileMoved(from: p("/lib/photo.jpg"), to: p("/lib/photo.jpg_original")),
                           .fileMoved(from: p("/lib/photo.jpg_exiftool_tmp"), to: p("/lib/photo.jpg"))])
        #expect(fixture.decoder.nextDeadline == nil)
    }

    @Test func aRenameToTheBackupNameWithNothingInThePhotosPlaceIsAMoveOnceItsGraceIsOver() {
        var fixture = DecoderFixture()
        #expect(fixture.decode([
            event(2, WatchMask.movedFrom, "a.jpg", cookie: 9),
            event(2, WatchMask.movedTo, "a.jpg_original", cookie: 9),
        ]).isEmpty)
        #expect(fixture.decoder.nextDeadline == DecoderFixture.start + SettlingFiles.grace)
        #expect(fixture.expire(at: SettlingFiles.grace - .milliseconds(1)).isEmpty)
        #expect(fixture.expire(at: SettlingFiles.grace) == [.fileMoved(from: p("/lib/sub/a.jpg"), to: p("/lib/sub/a.jpg_original"))])
        #expect(fixture.decoder.nextDeadline == nil)
    }

    /// The held rename comes out before anything else that happens to the backup, or its folder.
    @Test func aHeldBackupComesOutBeforeItsFoldersRemoval() {
        var fixture = DecoderFixture()
        _ = fixture.decode([event(3, WatchMask.movedFrom, "a.jpg", cookie: 9), event(3, WatchMask.movedTo, "a.jpg_original", cookie: 9)])
        #expect(fixture.decode([event(2, WatchMask.delete | directoryFlag, "deep")]) == [
            .fileMoved(from: p("/lib/sub/deep/a.jpg"), to: p("/lib/sub/deep/a.jpg_original")),
            .directoryRemoved(p("/lib/sub/deep")),
        ])
    }

    @Test(arguments: [("photo.jpg_original", "photo.jpg", true), ("photo.jpg_original2", "photo.jpg", false),
                      ("other.jpg_original", "photo.jpg", false), ("photo.jpg", "photo.jpg", false)])
    func exifToolsBackupNameIsRecognised(backup: String, photo: String, expected: Bool) {
        #expect(TemporaryName.isBackup(p(backup), of: p(photo)) == expected)
    }

    @Test func aTemporaryFileThatStaysIsWrittenOnceItsGraceIsOver() {
        var fixture = DecoderFixture()
        #expect(fixture.decode([event(2, WatchMask.closeWrite, "sedAbC123")]).isEmpty)
        #expect(fixture.decode([event(2, WatchMask.closeWrite, "sedAbC123")], at: .milliseconds(900)).isEmpty)
        #expect(fixture.expire(at: .milliseconds(999)).isEmpty)
        #expect(fixture.expire(at: SettlingFiles.grace) == [.fileWritten(p("/lib/sub/sedAbC123"))],
                "written again, it keeps its first deadline")
        #expect(fixture.decoder.nextDeadline == nil)
    }

    @Test func aDeletedTemporaryFileIsForgotten() {
        var fixture = DecoderFixture()
        _ = fixture.decode([event(1, WatchMask.closeWrite, "photo.jpg.tmp")])
        #expect(fixture.decode([event(1, WatchMask.delete, "photo.jpg.tmp")]) == [.fileRemoved(p("/lib/photo.jpg.tmp"))])
        #expect(fixture.decoder.nextDeadline == nil)
    }

    @Test func aTemporaryNameArrivingFromAHiddenOneIsHeldAsAnArrival() {
        var fixture = DecoderFixture()
        #expect(fixture.decode([
            event(1, WatchMask.movedFrom, ".x", cookie: 8),
            event(1, WatchMask.movedTo, "tmpk2m9q0a1.jpg", cookie: 8),
        ]).isEmpty)
        #expect(fixture.expire(at: .seconds(1)) == [.fileArrived(p("/lib/tmpk2m9q0a1.jpg"))])
    }

    @Test func aHeldFileFollowsItsFolder() {
        var fixture = DecoderFixture()
        _ = fixture.decode([event(3, WatchMask.closeWrite, "photo.jpg.Zq81Ka"), event(4, WatchMask.closeWrite, "a.part")])
        _ = fixture.decode([
            event(1, WatchMask.movedFrom | directoryFlag, "sub", cookie: 11),
            event(1, WatchMask.movedTo | directoryFlag, "renamed", cookie: 11),
        ])
        #expect(fixture.expire(at: .seconds(1)) == [.fileWritten(p("/lib/renamed/deep/photo.jpg.Zq81Ka")),
                                                    .fileWritten(p("/other/a.part"))])
    }

    @Test func aRemovedFolderDropsItsHeldFiles() {
        var fixture = DecoderFixture()
        _ = fixture.decode([event(3, WatchMask.closeWrite, "photo.jpg.tmp")])
        #expect(fixture.decode([event(1, WatchMask.delete | directoryFlag, "sub")]) == [.directoryRemoved(p("/lib/sub"))])
        #expect(fixture.decoder.nextDeadline == nil)
    }

    @Test func anOrdinaryFileIsNotHeld() {
        var fixture = DecoderFixture()
        #expect(fixture.decode([event(1, WatchMask.closeWrite, "photo.jpg")]) == [.fileWritten(p("/lib/photo.jpg"))])
        #expect(fixture.decoder.nextDeadline == nil)
    }
}
