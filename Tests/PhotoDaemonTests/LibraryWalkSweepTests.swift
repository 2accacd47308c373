import FileSystem
import Foundation
import Glibc
import Logging
import PhotoTestSupport
import Testing
@testable import PhotoDaemon

/// photod's library walk removes the temporary files a killed import or description left
/// behind, and nothing else: not a fresh one (a write may be running), not another hidden
/// file, not a symlink under such a name, not another user's file.
@Suite struct LibraryWalkSweepTests {
    /// Older than `LeftoverTemporaries.minimumAge`.
    static let old = LeftoverTemporaries.minimumAge + 60

    @Test func theWalkRemovesOnlyOldTemporaryFilesOfPhotodsOwn() throws {
        let dir = try TemporaryDirectory()
        let library = dir.file("library")
        let photo = try dir.write("library/Imported/a.jpg", TestPhoto.jpeg("Beach"))
        let leftover = try dir.write("library/Imported/.photod-new-abc", Array("half a photo".utf8))
        let atRoot = try dir.write("library/.photod-new-0123456789abcdef", Array("half a photo".utf8))
        let fresh = try dir.write("library/Imported/.photod-new-fresh", Array("being written".utf8))
        let otherHidden = try dir.write("library/Imported/.cache", Array("a tool's".utf8))
        let target = try dir.write("elsewhere/kept", Array("outside the library".utf8))
        let symlink = dir.file("library/Imported/.photod-new-x")
        try FileManager.default.createSymbolicLink(atPath: symlink, withDestinationPath: target)
        for path in [leftover, atRoot, otherHidden, target, symlink] { try Backdate.set(path, secondsAgo: Self.old) }
        // Another user's file under photod's name (a shared folder) is theirs: only root can make one.
        let foreign = dir.file("library/Imported/.photod-new-theirs")
        if geteuid() == 0 {
            try dir.write("library/Imported/.photod-new-theirs", Array("theirs".utf8))
            #expect(chown(foreign, 65534, 65534) == 0)
            try Backdate.set(foreign, secondsAgo: Self.old)
        }

        let walk = LibraryWalk(root: PathBytes(library), sidecars: false, logger: Logger(label: "test"))
        var walked: [String] = []
        while true {
            let step = walk.next(upTo: 2)
            walked += step.files.map(\.path.description)
            if step.ended { break }
        }

        #expect(walked == [photo], "hidden files are still not walked")
        #expect(!FileManager.default.fileExists(atPath: leftover), "an old temporary file is removed")
        #expect(!FileManager.default.fileExists(atPath: atRoot), "also in the root's own folder")
        for kept in [fresh, otherHidden, target] {
            #expect(FileManager.default.fileExists(atPath: kept), "\(kept) stays")
        }
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: symlink)) == target, "a symlink stays")
        if geteuid() == 0 { #expect(FileManager.default.fileExists(atPath: foreign), "another user's file stays") }
    }
}
