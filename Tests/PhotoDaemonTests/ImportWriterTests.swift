import FileSystem
import Foundation
import Glibc
import Metadata
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
        let imported = try Self.writer(dir).write(.descriptor(source), name: "../sneaky/holiday.jpg", now: Self.now)
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
            _ = try writer.write(.descriptor(source), name: "holiday.jpg", now: Self.now)
        }
        #expect(Self.tree(dir.file("library/Imported/2021/07")) == ["holiday (2).jpg", "holiday (3).jpg", "holiday.jpg"])
        #expect(try String(contentsOfFile: dir.file("library/Imported/2021/07/holiday.jpg"), encoding: .utf8) == "theirs")
    }

    @Test func bytesThatAreNoPhotoAreRefusedAndLeaveNothing() throws {
        let dir = try TemporaryDirectory()
        let source = Self.pipe(Array("#!/bin/sh\nrm -rf ~\n".utf8))
        defer { close(source) }
        #expect(throws: ImportError.notAnImage) { try Self.writer(dir).write(.descriptor(source), name: "photo.jpg", now: Self.now) }
        #expect(Self.tree(dir.file("library/Imported")).isEmpty)
    }

    @Test func morePhotoThanTheLimitIsRefusedAndLeavesNothing() throws {
        let dir = try TemporaryDirectory()
        let photo = TestPhoto.jpeg("Beach")
        let writer = try Self.writer(dir, maxBytes: photo.count - 1)
        let piped = Self.pipe(photo)
        defer { close(piped) }
        #expect(throws: ImportError.tooLarge(limit: photo.count - 1)) { try writer.write(.descriptor(piped), name: nil, now: Self.now) }
        // A file says its size: refused before a byte is copied.
        let file = try dir.write("big.jpg", photo)
        let opened = open(file, O_RDONLY)
        defer { close(opened) }
        #expect(throws: ImportError.tooLarge(limit: photo.count - 1)) { try writer.write(.descriptor(opened), name: nil, now: Self.now) }
        #expect(Self.tree(dir.file("library/Imported")).isEmpty)
    }

    @Test func aFolderOrASocketIsNotReadAsAPhoto() throws {
        let dir = try TemporaryDirectory()
        let folder = open(dir.path, O_RDONLY | O_DIRECTORY)
        defer { close(folder) }
        #expect(throws: ImportError.notReadable("a folder")) { try Self.writer(dir).write(.descriptor(folder), name: nil, now: Self.now) }
        var pair: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { pair.forEach { close($0) } }
        #expect(throws: ImportError.notReadable("a socket")) { try Self.writer(dir).write(.descriptor(pair[0]), name: nil, now: Self.now) }
    }

    /// The smallest PNG photod's reader takes (CRCs are not checked by it).
    private static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        + [0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0] + [0, 0, 0, 0]
        + [0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]

    @Test func aDescriptionGoesIntoAJPEGBeforeItHasAName() throws {
        let dir = try TemporaryDirectory()
        let photo = TestPhoto.jpeg("Beach")
        let imported = try Self.writer(dir).write(.bytes(photo), name: "a.jpg", description: "Harbour at dusk", now: Self.now)
        #expect(imported.metadata.descriptions.exif == Array("Harbour at dusk".utf8))
        #expect(imported.sidecar == nil)
        let written = Array(try Data(contentsOf: URL(fileURLWithPath: imported.path.description)))
        #expect(written == (try DescriptionEdit.jpeg(photo, description: "Harbour at dusk")), "only the description changed")
        #expect(Self.tree(dir.file("library/Imported")) == ["2021", "2021/07", "2021/07/a.jpg"])
    }

    @Test func aDescriptionOfAnotherFormatGoesIntoASidecarAndThePhotoIsKeptExactly() throws {
        let dir = try TemporaryDirectory()
        let imported = try Self.writer(dir).write(.bytes(Self.png), name: "shot.png", description: "Screens", now: Self.now)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: imported.path.description))) == Self.png)
        let sidecar = try #require(imported.sidecar)
        #expect(sidecar == PathBytes(dir.file("library/Imported/2026/11/shot.png.xmp")))
        let xmp = try String(contentsOfFile: sidecar.description, encoding: .utf8)
        #expect(xmp.contains("Screens"))
    }

    @Test func aDescriptionThatCannotBeWrittenKeepsNothing() throws {
        let dir = try TemporaryDirectory()
        let long = String(repeating: "x", count: DescriptionEdit.maxDescriptionBytes + 1)
        #expect(throws: ImportError.descriptionRefused(.descriptionTooLong(limit: DescriptionEdit.maxDescriptionBytes))) {
            try Self.writer(dir).write(.bytes(TestPhoto.jpeg("Beach")), name: nil, description: long, now: Self.now)
        }
        #expect(throws: ImportError.descriptionRefused(.descriptionTooLong(limit: DescriptionEdit.maxDescriptionBytes))) {
            try Self.writer(dir).write(.bytes(Self.png), name: nil, description: long, now: Self.now)
        }
        #expect(Self.tree(dir.file("library/Imported")).filter { !$0.hasSuffix("/") && $0.contains(".") }.isEmpty)
    }

    @Test func bytesGivenInTheCallAreHeldToTheSameLimit() throws {
        let dir = try TemporaryDirectory()
        let photo = TestPhoto.jpeg("Beach")
        #expect(throws: ImportError.tooLarge(limit: photo.count - 1)) {
            try Self.writer(dir, maxBytes: photo.count - 1).write(.bytes(photo), name: nil, now: Self.now)
        }
    }

    @Test func aPhotoWithoutADateGoesToTodaysFolderUnderAMadeName() throws {
        let dir = try TemporaryDirectory()
        let photo = JPEGFixture.make(exif: ExifFixture(description: "Undated"))
        let source = Self.pipe(photo)
        defer { close(source) }
        let imported = try Self.writer(dir).write(.descriptor(source), name: nil, now: Self.now)
        #expect(imported.path == PathBytes(dir.file("library/Imported/2026/11/IMG_20261128_170509.jpg")))
    }
}
