import FileSystem
import Foundation
import PhotoTestSupport
import Testing
@testable import ThumbnailCache

/// `trim(toBytes:)`: photod's oldest thumbnails go first, other programs' are not counted or touched.
@Suite struct CacheTrimTests {
    /// Stores a thumbnail for each of `count` paths, each written a minute after the one before.
    private func fill(_ fixture: CacheFixture, count: Int, size: ThumbnailSize = .normal) throws -> [String] {
        var files: [String] = []
        for index in 0..<count {
            let source = "/photos/\(index).jpg"
            try fixture.cache.store(png: CacheFixture.thumbnail(width: 100, height: 80), path: PathBytes(source),
                                    mtime: 1, fileSize: 1, size: size)
            let file = fixture.thumbnailPath(source, size)
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000_000 + Double(index) * 60)],
                                                  ofItemAtPath: file)
            files.append(file)
        }
        return files
    }

    private func bytes(_ path: String) -> Int64 {
        Int64((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
    }

    @Test func theOldestOfPhotodsOwnGoFirstAndOthersAreLeftAlone() throws {
        let fixture = try CacheFixture()
        let normal = try fill(fixture, count: 6)
        let large = try fill(fixture, count: 4, size: .large)
        // Another thumbnailer's file, older than all of photod's and as large.
        let foreign = fixture.root + "/normal/0123456789abcdef0123456789abcdef.png"
        let text = [PNGText(keyword: "Thumb::URI", text: "file:///elsewhere.jpg"), PNGText(keyword: "Thumb::MTime", text: "1"),
                    PNGText(keyword: "Software", text: "GNOME::ThumbnailFactory")]
        try Data(try PNGChunks.insertingText(text, into: CacheFixture.thumbnail(width: 100, height: 80)))
            .write(to: URL(fileURLWithPath: foreign))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1)], ofItemAtPath: foreign)

        // By write time: normal 0, large 0, normal 1, large 1, ... large 3, normal 4, normal 5; keep the newest four.
        let keep = [normal[3], large[3], normal[4], normal[5]]
        let bound = keep.map(bytes).reduce(0, +)
        let own = (normal + large).map(bytes).reduce(0, +)
        let result = try fixture.cache.trim(toBytes: bound)
        #expect(result == CacheTrimResult(ownBytesBefore: own, ownBytesAfter: bound, removed: 6))
        for file in normal + large {
            #expect(FileManager.default.fileExists(atPath: file) == keep.contains(file), "\(file)")
        }
        #expect(FileManager.default.fileExists(atPath: foreign))
        // Within the bound now: nothing more goes.
        #expect(try fixture.cache.trim(toBytes: bound).removed == 0)
    }

    @Test func aCacheUnderTheBoundIsLeftAsItIs() throws {
        let fixture = try CacheFixture()
        let files = try fill(fixture, count: 3)
        let total = files.map(bytes).reduce(0, +)
        #expect(try fixture.cache.trim(toBytes: total) == CacheTrimResult(ownBytesBefore: 0, ownBytesAfter: 0, removed: 0))
        #expect(files.allSatisfy { FileManager.default.fileExists(atPath: $0) })
        // No cache at all is no error.
        let empty = try CacheFixture()
        #expect(try empty.cache.trim(toBytes: 0).removed == 0)
    }

    @Test func onlyTheLeadingTextOfAFileIsRead() throws {
        let png = try PNGChunks.insertingText([PNGText(keyword: "Software", text: "photod 1.2")],
                                              into: CacheFixture.thumbnail(width: 64, height: 64))
        #expect(PNGChunks.leadingText(Array(png.prefix(200))) == [PNGText(keyword: "Software", text: "photod 1.2")])
        // Cut inside the text chunk, or not a PNG: nothing.
        #expect(PNGChunks.leadingText(Array(png.prefix(40))).isEmpty)
        #expect(PNGChunks.leadingText(Array("not a png at all".utf8)).isEmpty)
    }
}
