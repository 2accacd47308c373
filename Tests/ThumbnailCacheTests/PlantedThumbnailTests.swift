import FileSystem
import Foundation
import PhotoTestSupport
import Testing
@testable import ThumbnailCache

/// The shared cache is writable by every program of the user: what lookup finds there is
/// checked against the original before it is taken for photod's.
@Suite struct PlantedThumbnailTests {
    private let source = "/photos/holiday.jpg"
    private var sourceBytes: PathBytes { PathBytes(source) }
    private let mtime: Int64 = 1_700_000_000
    private let fileSize: Int64 = 4_321

    /// Writes `png` tagged with `text` under the thumbnail's name, as another program would, with `mode`.
    private func plant(_ fixture: CacheFixture, _ png: [UInt8], text: [PNGText], mode: mode_t = 0o600,
                       size: ThumbnailSize = .normal) throws {
        try CacheFixture.makeFolder(fixture.root)
        try CacheFixture.makeFolder(fixture.root + "/" + size.folderName)
        let path = fixture.thumbnailPath(source, size)
        try Data(try PNGChunks.insertingText(text, into: png)).write(to: URL(fileURLWithPath: path))
        #expect(chmod(path, mode) == 0)
    }

    private func tags(uri: String? = nil, mtime: Int64? = nil, size: Int64? = nil) -> [PNGText] {
        var text = [PNGText(keyword: "Thumb::URI", text: uri ?? "file://" + source),
                    PNGText(keyword: "Thumb::MTime", text: String(mtime ?? self.mtime))]
        if let size { text.append(PNGText(keyword: "Thumb::Size", text: String(size))) }
        return text
    }

    @Test func aThumbnailThatNamesTheOriginalIsTakenWhoeverMadeIt() throws {
        let fixture = try CacheFixture()
        try plant(fixture, CacheFixture.thumbnail(width: 128, height: 90), text: tags(size: fileSize))
        #expect(fixture.cache.lookup(path: sourceBytes, mtime: mtime, size: .normal, fileSize: fileSize) != nil)
        // Thumb::Size is optional in the standard: a thumbnail without it is judged by URI and mtime.
        try plant(fixture, CacheFixture.thumbnail(width: 128, height: 90), text: tags())
        #expect(fixture.cache.lookup(path: sourceBytes, mtime: mtime, size: .normal, fileSize: fileSize) != nil)
    }

    @Test func anotherPictureUnderTheRightNameIsNotTaken() throws {
        let fixture = try CacheFixture()
        let picture = CacheFixture.thumbnail(width: 100, height: 100)
        // Made from another version of the file: another size, another modification time.
        try plant(fixture, picture, text: tags(size: fileSize + 1))
        #expect(fixture.cache.lookup(path: sourceBytes, mtime: mtime, size: .normal, fileSize: fileSize) == nil)
        try plant(fixture, picture, text: tags(mtime: mtime - 1, size: fileSize))
        #expect(fixture.cache.lookup(path: sourceBytes, mtime: mtime, size: .normal, fileSize: fileSize) == nil)
        // Two sizes, one of them right, are no better than one wrong one.
        try plant(fixture, picture, text: tags(size: fileSize) + [PNGText(keyword: "Thumb::Size", text: "1")])
        #expect(fixture.cache.lookup(path: sourceBytes, mtime: mtime, size: .normal, fileSize: fileSize) == nil)
    }

    @Test func aFileOthersCanReadOrWriteIsNotTaken() throws {
        let fixture = try CacheFixture()
        for mode: mode_t in [0o644, 0o660, 0o602, 0o640] {
            try plant(fixture, CacheFixture.thumbnail(), text: tags(size: fileSize), mode: mode)
            #expect(fixture.cache.lookup(path: sourceBytes, mtime: mtime, size: .normal, fileSize: fileSize) == nil,
                    "mode \(String(mode, radix: 8))")
        }
        try plant(fixture, CacheFixture.thumbnail(), text: tags(size: fileSize), mode: 0o600)
        #expect(fixture.cache.lookup(path: sourceBytes, mtime: mtime, size: .normal, fileSize: fileSize) != nil)
    }

    @Test func aPictureLargerThanItsFolderIsNotTaken() throws {
        let fixture = try CacheFixture()
        // A "normal" thumbnail is at most 128×128; a huge one could cost the app that decodes it.
        try plant(fixture, CacheFixture.thumbnail(width: 4000, height: 8), text: tags(size: fileSize))
        #expect(fixture.cache.lookup(path: sourceBytes, mtime: mtime, size: .normal, fileSize: fileSize) == nil)
        try plant(fixture, CacheFixture.thumbnail(width: 128, height: 128), text: tags(size: fileSize))
        #expect(fixture.cache.lookup(path: sourceBytes, mtime: mtime, size: .normal, fileSize: fileSize) != nil)
    }
}
