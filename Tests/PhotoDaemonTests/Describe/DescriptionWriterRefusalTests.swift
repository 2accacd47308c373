import FileSystem
import Foundation
import Glibc
import Metadata
import PhotoTestSupport
import Store
import Testing
@testable import PhotoDaemon

/// Every refusal leaves the photo, its sidecar and its folder exactly as they were.
@Suite struct DescriptionWriterRefusalTests {
    /// A JPEG in a fresh folder: the folder, its path and its bytes.
    private static func photo(_ name: String = "beach.jpg") throws -> (TemporaryDirectory, String, [UInt8]) {
        let dir = try TemporaryDirectory()
        let bytes = TestPhoto.jpeg("Beach")
        return (dir, try dir.write(name, bytes), bytes)
    }

    private static func write(_ path: String, expected: FileStamp? = nil, writer: DescriptionWriter = DescribeFixture.writer()) throws {
        _ = try writer.write(path: PathBytes(path), expected: try expected ?? DescribeFixture.stamp(path), description: "New")
    }

    @Test func aSymlinkIsRefusedAndNotFollowed() throws {
        let (dir, target, bytes) = try Self.photo()
        let link = dir.file("link.jpg")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        #expect(throws: DescriptionWriteError.notRegularFile) { try Self.write(link, expected: try DescribeFixture.stamp(target)) }
        #expect(try DescribeFixture.bytes(target) == bytes)
        #expect(DescribeFixture.names(dir.path) == ["beach.jpg", "link.jpg"])
    }

    @Test func aFIFOIsRefusedWithoutBlocking() throws {
        let dir = try TemporaryDirectory()
        let fifo = dir.file("pipe.jpg")
        #expect(mkfifo(fifo, 0o644) == 0)
        #expect(throws: DescriptionWriteError.notRegularFile) { try Self.write(fifo) }
        #expect(DescribeFixture.names(dir.path) == ["pipe.jpg"])
    }

    @Test func aReadOnlyPhotoIsRefusedEvenForRoot() throws {
        let (dir, path, bytes) = try Self.photo()
        try DescribeFixture.chmod(path, 0o444)
        #expect(throws: DescriptionWriteError.readOnly(what: "the photo")) { try Self.write(path) }
        #expect(try DescribeFixture.bytes(path) == bytes)
        #expect(DescribeFixture.names(dir.path) == ["beach.jpg"])
    }

    @Test func aReadOnlyFolderIsRefused() throws {
        let (dir, path, bytes) = try Self.photo()
        try DescribeFixture.chmod(dir.path, 0o555)
        defer { try? DescribeFixture.chmod(dir.path, 0o755) }
        #expect(throws: DescriptionWriteError.readOnly(what: "its folder")) { try Self.write(path) }
        #expect(try DescribeFixture.bytes(path) == bytes)
        // The sidecar route needs the folder too.
        let other = try TemporaryDirectory()
        let png = try other.write("shot.png", PNGFixture().make())
        try DescribeFixture.chmod(other.path, 0o555)
        defer { try? DescribeFixture.chmod(other.path, 0o755) }
        #expect(throws: DescriptionWriteError.readOnly(what: "its folder")) { try Self.write(png) }
        #expect(DescribeFixture.names(other.path) == ["shot.png"])
    }

    @Test func aPhotoChangedSinceItWasIndexedIsRefused() throws {
        let (dir, path, bytes) = try Self.photo()
        var stale = try DescribeFixture.stamp(path)
        stale.mtimeNs -= 1_000_000_000
        #expect(throws: DescriptionWriteError.assetChanged) { try Self.write(path, expected: stale) }
        var other = try DescribeFixture.stamp(path)
        other.inode += 1
        #expect(throws: DescriptionWriteError.assetChanged) { try Self.write(path, expected: other) }
        #expect(try DescribeFixture.bytes(path) == bytes)
        #expect(DescribeFixture.names(dir.path) == ["beach.jpg"])
        // Gone since indexed.
        let stamp = try DescribeFixture.stamp(path)
        try FileManager.default.removeItem(atPath: path)
        #expect(throws: DescriptionWriteError.assetChanged) { try Self.write(path, expected: stamp) }
    }

    @Test func aPhotoWrittenBetweenReadAndRenameIsRefused() throws {
        let (dir, path, bytes) = try Self.photo()
        var writer = DescribeFixture.writer()
        // Another program appends while the new file is staged.
        writer.beforeCommit = { target in
            let fd = open(target.description, O_WRONLY | O_APPEND)
            _ = [UInt8(0)].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, 1) }
            close(fd)
        }
        #expect(throws: DescriptionWriteError.assetChanged) { try Self.write(path, writer: writer) }
        #expect(try DescribeFixture.bytes(path) == bytes + [0], "the other program's write stands")
        #expect(DescribeFixture.names(dir.path) == ["beach.jpg"], "the staged file is gone")
    }

    @Test func aPhotoReplacedBetweenReadAndRenameIsRefused() throws {
        let (dir, path, _) = try Self.photo()
        let theirs = TestPhoto.jpeg("Theirs")
        var writer = DescribeFixture.writer()
        // An editor saves its own version by renaming a new file over it.
        writer.beforeCommit = { target in
            try? Data(theirs).write(to: URL(fileURLWithPath: target.description), options: .atomic)
        }
        #expect(throws: DescriptionWriteError.assetChanged) { try Self.write(path, writer: writer) }
        #expect(try DescribeFixture.bytes(path) == theirs)
        #expect(DescribeFixture.names(dir.path) == ["beach.jpg"])
    }

    @Test func aHardLinkedPhotoIsRefused() throws {
        let (dir, path, bytes) = try Self.photo()
        #expect(link(path, dir.file("other.jpg")) == 0)
        #expect(throws: DescriptionWriteError.hardLinked(links: 2)) { try Self.write(path) }
        #expect(try DescribeFixture.bytes(path) == bytes)
        #expect(DescribeFixture.names(dir.path) == ["beach.jpg", "other.jpg"])
    }

    @Test func aJPEGTheEditRefusesIsRefusedWithoutASidecar() throws {
        let dir = try TemporaryDirectory()
        // A segment whose length runs past the end of the file.
        let broken: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1, 0x40, 0x00] + Array("Exif".utf8) + [0, 0]
        let path = try dir.write("broken.jpg", broken)
        #expect(MetadataReader.read(bytes: broken).format == .jpeg)
        do {
            try Self.write(path)
            Issue.record("a malformed JPEG was written")
        } catch let error as DescriptionWriteError {
            guard case .refused(.malformedJPEG) = error else { Issue.record("\(error)"); return }
            #expect(error.message.hasPrefix("the JPEG is malformed: "), "\(error.message)")
        }
        #expect(try DescribeFixture.bytes(path) == broken)
        #expect(DescribeFixture.names(dir.path) == ["broken.jpg"], "no sidecar instead")
    }

    @Test func aTextTheEditRefusesIsRefusedForASidecarToo() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("shot.png", PNGFixture().make())
        #expect(throws: DescriptionWriteError.refused(.invalidDescription(reason: "NUL ends EXIF and IPTC text early"))) {
            _ = try DescribeFixture.writer().write(path: PathBytes(path), expected: try DescribeFixture.stamp(path), description: "a\0b")
        }
        #expect(DescribeFixture.names(dir.path) == ["shot.png"])
    }

    @Test func aSymlinkWhereTheSidecarWouldGoIsRefused() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("shot.png", PNGFixture().make())
        let elsewhere = try dir.write("elsewhere.txt", Array("keep".utf8))
        try FileManager.default.createSymbolicLink(atPath: dir.file("shot.png.xmp"), withDestinationPath: elsewhere)
        #expect(throws: DescriptionWriteError.notRegularFile) { try Self.write(path) }
        #expect(try DescribeFixture.bytes(elsewhere) == Array("keep".utf8))
        #expect(DescribeFixture.names(dir.path) == ["elsewhere.txt", "shot.png", "shot.png.xmp"])
    }

    @Test func aSidecarWrittenBetweenReadAndRenameIsRefused() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("shot.png", PNGFixture().make())
        let sidecar = try dir.write("shot.png.xmp", XMPFixture(description: "Old").packet())
        let theirs = XMPFixture(description: "Theirs").packet()
        var writer = DescribeFixture.writer()
        writer.beforeCommit = { target in try? Data(theirs).write(to: URL(fileURLWithPath: target.description)) }
        #expect(throws: DescriptionWriteError.assetChanged) { try Self.write(path, writer: writer) }
        #expect(try DescribeFixture.bytes(sidecar) == theirs)
        #expect(DescribeFixture.names(dir.path) == ["shot.png", "shot.png.xmp"])
    }

    @Test func aJPEGPastTheLimitIsRefusedUnread() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("huge.jpg")
        let jpeg = TestPhoto.jpeg("Beach")
        try dir.write("huge.jpg", jpeg)
        // Sparse: the size is past the limit without the disk holding it.
        #expect(truncate(path, off_t(DescriptionEdit.maxJPEGBytes + 1)) == 0)
        #expect(throws: DescriptionWriteError.tooLarge(limit: DescriptionEdit.maxJPEGBytes)) { try Self.write(path) }
        #expect(DescribeFixture.names(dir.path) == ["huge.jpg"])
    }
}
