import FileSystem
import Foundation
import Glibc
import Metadata
import PhotoTestSupport
import Store
import Testing
@testable import PhotoDaemon

/// A description lands in the JPEG itself (replaced whole, keeping its mode and attributes) or in
/// the sidecar of any other format, and photod's reader sees it.
@Suite struct DescriptionWriterTests {
    static let text = "Mountains & <Sea> öß"

    @Test func aJPEGIsRewrittenInPlaceKeepingModeAndAttributes() throws {
        let dir = try TemporaryDirectory()
        let original = TestPhoto.jpeg("Beach")
        let path = try dir.write("beach.jpg", original)
        try DescribeFixture.chmod(path, 0o640)
        try DescribeFixture.setAttribute(path, "user.photod.test", "kept")

        let outcome = try DescribeFixture.writer().write(path: PathBytes(path), expected: try DescribeFixture.stamp(path), description: Self.text)
        #expect(outcome.written == .inPlace(PathBytes(path)))
        #expect(outcome.stamp == (try DescribeFixture.stamp(path)), "the stamp returned is the file's now")
        let written = try DescribeFixture.bytes(path)
        // Every byte outside the description is as the byte-level writer leaves it.
        #expect(written == (try DescriptionEdit.jpeg(original, description: Self.text)))
        #expect(MetadataReader.read(bytes: written).descriptions.exif == Array(Self.text.utf8))
        #expect(DescribeFixture.mode(path) == 0o640)
        #expect(try DescribeFixture.attribute(path, "user.photod.test") == "kept")
        #expect(DescribeFixture.names(dir.path) == ["beach.jpg"], "no temporary file is left")

        let cleared = try DescribeFixture.writer().write(path: PathBytes(path), expected: outcome.stamp, description: nil)
        #expect(cleared.written == .inPlace(PathBytes(path)))
        #expect(MetadataReader.read(bytes: try DescribeFixture.bytes(path)).descriptions.exif == nil)
        #expect(DescribeFixture.mode(path) == 0o640)
        #expect(try DescribeFixture.attribute(path, "user.photod.test") == "kept")
    }

    @Test func aJPEGNamedLikeAPNGIsStillWrittenInPlace() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("beach.png", TestPhoto.jpeg("Beach"))
        let outcome = try DescribeFixture.writer().write(path: PathBytes(path), expected: try DescribeFixture.stamp(path), description: Self.text)
        #expect(outcome.written == .inPlace(PathBytes(path)), "the bytes decide, not the name")
        #expect(DescribeFixture.names(dir.path) == ["beach.png"])
    }

    @Test func aPNGGetsANewSidecarAndIsNotTouched() throws {
        let dir = try TemporaryDirectory()
        let png = PNGFixture().make()
        let path = try dir.write("shot.png", png)
        try DescribeFixture.chmod(path, 0o600)
        let before = try DescribeFixture.stamp(path)

        let outcome = try DescribeFixture.writer().write(path: PathBytes(path), expected: before, description: Self.text)
        let sidecar = dir.file("shot.png.xmp")
        #expect(outcome.written == .sidecar(PathBytes(sidecar)))
        #expect(try DescribeFixture.bytes(path) == png)
        #expect(outcome.stamp.isSameFile(as: before), "the photo is the same file with the same bytes")
        #expect(outcome.stamp.sidecar == Sidecar.find(for: PathBytes(path))?.signature, "the stamp carries the new sidecar")
        #expect(XMPPacket.description(in: try DescribeFixture.bytes(sidecar)) == Array(Self.text.utf8))
        #expect(DescribeFixture.mode(sidecar) == 0o600, "a private photo gets a private sidecar")
        #expect(DescribeFixture.names(dir.path) == ["shot.png", "shot.png.xmp"])
    }

    @Test func theSidecarPhotodReadsIsTheOneUpdated() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("shot.png", PNGFixture().make())
        // Only NAME.xmp (Lightroom's name): it is updated, and no NAME.EXT.xmp appears beside it.
        let existing = XMPFixture(description: "Old").packet()
        let sidecar = try dir.write("shot.xmp", existing)
        try DescribeFixture.chmod(sidecar, 0o604)
        try DescribeFixture.setAttribute(sidecar, "user.photod.test", "kept")

        let outcome = try DescribeFixture.writer().write(path: PathBytes(path), expected: try DescribeFixture.stamp(path), description: Self.text)
        #expect(outcome.written == .sidecar(PathBytes(sidecar)))
        let updated = try DescribeFixture.bytes(sidecar)
        #expect(updated == (try DescriptionEdit.sidecar(existing: existing, description: Self.text)))
        #expect(String(decoding: updated, as: UTF8.self).contains("Not the description"), "the rest of the sidecar stays")
        #expect(DescribeFixture.mode(sidecar) == 0o604)
        #expect(try DescribeFixture.attribute(sidecar, "user.photod.test") == "kept")
        #expect(DescribeFixture.names(dir.path) == ["shot.png", "shot.xmp"])

        // Cleared: the sidecar stays, without a description.
        let cleared = try DescribeFixture.writer().write(path: PathBytes(path), expected: outcome.stamp, description: nil)
        #expect(cleared.written == .sidecar(PathBytes(sidecar)))
        #expect(XMPPacket.description(in: try DescribeFixture.bytes(sidecar)) == nil)
    }

    @Test func clearingWhereThereIsNoSidecarWritesNothing() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("shot.png", PNGFixture().make())
        let outcome = try DescribeFixture.writer().write(path: PathBytes(path), expected: try DescribeFixture.stamp(path), description: nil)
        #expect(outcome.written == .nothing)
        #expect(DescribeFixture.names(dir.path) == ["shot.png"])
    }
}

/// A write photod would not show afterwards (another source comes first in its order) is refused
/// before anything is written.
@Suite struct DescriptionWriterShownTests {
    @Test func aSidecarBehindTheFilesOwnCaptionIsRefused() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("shot.png", PNGFixture(exif: ExifFixture(description: "Beach")).make())
        let stamp = try DescribeFixture.stamp(path)
        #expect(throws: DescriptionWriteError.notShown(instead: "exif")) {
            _ = try DescribeFixture.writer().write(path: PathBytes(path), expected: stamp, description: "New")
        }
        #expect(DescribeFixture.names(dir.path) == ["shot.png"])
        // With the sidecar first in the order, the same write is shown, and made.
        let sidecarFirst = DescribeFixture.writer(sources: [.sidecar, .exif, .xmp, .iptc])
        let outcome = try sidecarFirst.write(path: PathBytes(path), expected: stamp, description: "New")
        #expect(outcome.written == .sidecar(PathBytes(dir.file("shot.png.xmp"))))
        // Clearing the sidecar would show the PNG's own caption again: refused.
        #expect(throws: DescriptionWriteError.notShown(instead: "exif")) {
            _ = try sidecarFirst.write(path: PathBytes(path), expected: outcome.stamp, description: nil)
        }
    }

    @Test func aBoilerplateCaptionGivesWayToTheSidecar() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("shot.png", PNGFixture(exif: ExifFixture(description: "OLYMPUS DIGITAL CAMERA")).make())
        let outcome = try DescribeFixture.writer().write(path: PathBytes(path), expected: try DescribeFixture.stamp(path), description: "Beach")
        #expect(outcome.written == .sidecar(PathBytes(dir.file("shot.png.xmp"))))
    }

    @Test func aJPEGBehindItsSidecarIsRefused() throws {
        let dir = try TemporaryDirectory()
        let original = TestPhoto.jpeg("Beach")
        let path = try dir.write("beach.jpg", original)
        try dir.write("beach.jpg.xmp", XMPFixture(description: "Sidecar").packet())
        #expect(throws: DescriptionWriteError.notShown(instead: "sidecar")) {
            _ = try DescribeFixture.writer(sources: [.sidecar, .exif]).write(
                path: PathBytes(path), expected: try DescribeFixture.stamp(path), description: "New")
        }
        // In the default order, clearing the JPEG would show the sidecar's text.
        #expect(throws: DescriptionWriteError.notShown(instead: "sidecar")) {
            _ = try DescribeFixture.writer().write(path: PathBytes(path), expected: try DescribeFixture.stamp(path), description: nil)
        }
        #expect(try DescribeFixture.bytes(path) == original)
    }

    @Test func noSidecarIsWrittenWhenSidecarsAreNotASource() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("shot.png", PNGFixture().make())
        #expect(throws: DescriptionWriteError.notShown(instead: nil)) {
            _ = try DescribeFixture.writer(sources: [.exif, .xmp, .iptc]).write(
                path: PathBytes(path), expected: try DescribeFixture.stamp(path), description: "New")
        }
        #expect(DescribeFixture.names(dir.path) == ["shot.png"])
    }
}
