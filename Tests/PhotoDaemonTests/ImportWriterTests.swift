import FileSystem
import Foundation
import Glibc
import PhotoTestSupport
import Posix
import Testing
@testable import PhotoDaemon

/// An imported photo lands whole, in the folder of its date, under a free name; anything
/// refused leaves nothing behind.
@Suite struct ImportWriterTests {
    private static let now = "2026-11-28T17:05:09"

    /// A writer into `library/Imported/%Y/%m` of `dir`.
    private static func writer(_ dir: TemporaryDirectory, maxBytes: Int = 1 << 20) throws -> ImportWriter {
        ImportWriter(folder: try ImportFolder(template: dir.file("library/Imported/%Y/%m")), maxBytes: maxBytes)
    }

    /// Everything below `folder`, relative, hidden files included.
    private static func tree(_ folder: String) -> [String] {
        (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []).sorted()
    }

    /// `bytes` as the read end of a pipe, filled by a thread of its own (a pipe holds 64 KiB).
    private static func pipe(_ bytes: [UInt8]) -> Int32 {
        var ends: [Int32] = [-1, -1]
        precondition(Glibc.pipe(&ends) == 0)
        let writeEnd = ends[1]
        Thread.detachNewThread {
            _ = bytes.withUnsafeBytes { DescriptorWrite.all($0, to: writeEnd) }
            close(writeEnd)
        }
        return ends[0]
    }

    @Test func aPhotoFromAPipeLandsWholeInTheFolderOfItsDate() throws {
        let dir = try TemporaryDirectory()
        let photo = TestPhoto.jpeg("Beach")
        let source = Self.pipe(photo)
        defer { close(source) }
        let imported = try Self.writer(dir).write(from: source, name: "../sneaky/holiday.jpg", now: Self.now)
        #expect(imported.path == PathBytes(dir.file("library/Imported/2021/07/holiday.jpg")))
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: imported.path.description))) == photo, "the bytes are kept exactly")
        #expect(imported.metadata.format == .jpeg)
        #expect(Self.tree(dir.file("library/Imported")) == ["2021", "2021/07", "2021/07/holiday.jpg"], "no temporary file is left")
    }

    @Test func aTakenNameGetsTheNextNumberAndNothingIsOverwritten() throws {
        let dir = try TemporaryDirectory()
        try dir.write("library/Imported/2021/07/holiday.jpg", Array("theirs".utf8))
        let writer = try Self.writer(dir)
        for _ in 0..<2 {
            let source = Self.pipe(TestPhoto.jpeg("Beach"))
            defer { close(source) }
            _ = try writer.write(from: source, name: "holiday.jpg", now: Self.now)
        }
        #expect(Self.tree(dir.file("library/Imported/2021/07")) == ["holiday (2).jpg", "holiday (3).jpg", "holiday.jpg"])
        #expect(try String(contentsOfFile: dir.file("library/Imported/2021/07/holiday.jpg"), encoding: .utf8) == "theirs")
    }

    @Test func bytesThatAreNoPhotoAreRefusedAndLeaveNothing() throws {
        let dir = try TemporaryDirectory()
        let source = Self.pipe(Array("#!/bin/sh\nrm -rf ~\n".utf8))
        defer { close(source) }
        #expect(throws: ImportError.notAnImage) { try Self.writer(dir).write(from: source, name: "photo.jpg", now: Self.now) }
        #expect(Self.tree(dir.file("library/Imported")).isEmpty)
    }

    @Test func morePhotoThanTheLimitIsRefusedAndLeavesNothing() throws {
        let dir = try TemporaryDirectory()
        let photo = TestPhoto.jpeg("Beach")
        let writer = try Self.writer(dir, maxBytes: photo.count - 1)
        let piped = Self.pipe(photo)
        defer { close(piped) }
        #expect(throws: ImportError.tooLarge(limit: photo.count - 1)) { try writer.write(from: piped, name: nil, now: Self.now) }
        // A file says its size: refused before a byte is copied.
        let file = try dir.write("big.jpg", photo)
        let opened = open(file, O_RDONLY)
        defer { close(opened) }
        #expect(throws: ImportError.tooLarge(limit: photo.count - 1)) { try writer.write(from: opened, name: nil, now: Self.now) }
        #expect(Self.tree(dir.file("library/Imported")).isEmpty)
    }

    @Test func aFolderOrASocketIsNotReadAsAPhoto() throws {
        let dir = try TemporaryDirectory()
        let folder = open(dir.path, O_RDONLY | O_DIRECTORY)
        defer { close(folder) }
        #expect(throws: ImportError.notReadable("a folder")) { try Self.writer(dir).write(from: folder, name: nil, now: Self.now) }
        var pair: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { pair.forEach { close($0) } }
        #expect(throws: ImportError.notReadable("a socket")) { try Self.writer(dir).write(from: pair[0], name: nil, now: Self.now) }
    }

    @Test func aPhotoWithoutADateGoesToTodaysFolderUnderAMadeName() throws {
        let dir = try TemporaryDirectory()
        let photo = JPEGFixture.make(exif: ExifFixture(description: "Undated"))
        let source = Self.pipe(photo)
        defer { close(source) }
        let imported = try Self.writer(dir).write(from: source, name: nil, now: Self.now)
        #expect(imported.path == PathBytes(dir.file("library/Imported/2026/11/IMG_20261128_170509.jpg")))
    }
}
