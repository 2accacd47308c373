import FileSystem
import Foundation
import PhotoTestSupport
import Testing
@testable import ThumbnailCache

@Suite struct ThumbnailCacheTests {
    private let source = "/home/jens/photos/me.png"
    private var sourceBytes: PathBytes { PathBytes(source) }

    @Test func storeThenLookupRoundTrips() throws {
        let fixture = try CacheFixture()
        let png = CacheFixture.thumbnail(width: 128, height: 96)
        try fixture.cache.store(png: png, path: sourceBytes, mtime: 1_700_000_000, fileSize: 123_456, size: .normal)

        // The standard's own example: this URI's MD5 names the file.
        #expect(fixture.thumbnailPath(source) == fixture.root + "/normal/c6ee772d9e49320e97ec29a7eb5b1697.png")
        let found = try #require(fixture.cache.lookup(path: sourceBytes, mtime: 1_700_000_000, size: .normal))
        #expect(found.width == 128 && found.height == 96)
        let text = try #require(PNGChunks.read(found.png)).text
        #expect(text == [
            PNGText(keyword: "Thumb::URI", text: "file:///home/jens/photos/me.png"),
            PNGText(keyword: "Thumb::MTime", text: "1700000000"),
            PNGText(keyword: "Thumb::Size", text: "123456"),
            PNGText(keyword: "Software", text: "photod 1.2"),
        ])
        #expect(FileManager.default.contents(atPath: fixture.thumbnailPath(source)).map(Array.init) == found.png)
    }

    @Test func staleModificationTimeIsNotReturned() throws {
        let fixture = try CacheFixture()
        try fixture.cache.store(png: CacheFixture.thumbnail(), path: sourceBytes, mtime: 100, fileSize: 1, size: .normal)
        #expect(fixture.cache.lookup(path: sourceBytes, mtime: 100, size: .normal) != nil)
        #expect(fixture.cache.lookup(path: sourceBytes, mtime: 101, size: .normal) == nil)
        #expect(fixture.cache.lookup(path: sourceBytes, mtime: 100, size: .large) == nil)
    }

    @Test func anotherPathsThumbnailIsNotReturned() throws {
        let fixture = try CacheFixture()
        let other = "/home/jens/photos/other.png"
        try fixture.cache.store(png: CacheFixture.thumbnail(), path: sourceBytes, mtime: 5, fileSize: 1, size: .normal)
        #expect(fixture.cache.lookup(path: PathBytes(other), mtime: 5, size: .normal) == nil)
        // Even under the other file's name (a misplaced or colliding file), its URI gives it away.
        try FileManager.default.copyItem(atPath: fixture.thumbnailPath(source), toPath: fixture.thumbnailPath(other))
        #expect(fixture.cache.lookup(path: PathBytes(other), mtime: 5, size: .normal) == nil)
        #expect(fixture.cache.lookup(path: sourceBytes, mtime: 5, size: .normal) != nil)
    }

    @Test func nonUTF8PathsRoundTrip() throws {
        let fixture = try CacheFixture()
        let path = PathBytes(Array("/photos/".utf8) + [0xFF, 0xFE, 0x20] + Array(".png".utf8))
        try fixture.cache.store(png: CacheFixture.thumbnail(), path: path, mtime: 7, fileSize: 9, size: .large)
        let found = try #require(fixture.cache.lookup(path: path, mtime: 7, size: .large))
        #expect(PNGChunks.read(found.png)?.text(for: "Thumb::URI") == "file:///photos/%FF%FE%20.png")
    }

    @Test func storeReplacesAnOlderThumbnail() throws {
        let fixture = try CacheFixture()
        try fixture.cache.store(png: CacheFixture.thumbnail(width: 10, height: 10), path: sourceBytes, mtime: 1, fileSize: 1, size: .normal)
        try fixture.cache.store(png: CacheFixture.thumbnail(width: 20, height: 12), path: sourceBytes, mtime: 2, fileSize: 1, size: .normal)
        #expect(fixture.cache.lookup(path: sourceBytes, mtime: 1, size: .normal) == nil)
        let found = try #require(fixture.cache.lookup(path: sourceBytes, mtime: 2, size: .normal))
        #expect(found.width == 20 && found.height == 12)
    }

    @Test func badInputIsRefused() throws {
        let fixture = try CacheFixture()
        let png = CacheFixture.thumbnail(width: 200, height: 100)
        #expect(throws: ThumbnailCacheError(path: sourceBytes.bytes, reason: .tooLarge(width: 200, height: 100, box: 128))) {
            try fixture.cache.store(png: png, path: sourceBytes, mtime: 1, fileSize: 1, size: .normal)
        }
        try fixture.cache.store(png: png, path: sourceBytes, mtime: 1, fileSize: 1, size: .large)
        #expect(throws: ThumbnailCacheError(path: sourceBytes.bytes, reason: .invalidPNG(.notPNG))) {
            try fixture.cache.store(png: Array("GIF89a".utf8), path: sourceBytes, mtime: 1, fileSize: 1, size: .normal)
        }
        #expect(throws: ThumbnailCacheError(path: Array("me.png".utf8), reason: .notAbsolute)) {
            try fixture.cache.store(png: png, path: PathBytes("me.png"), mtime: 1, fileSize: 1, size: .large)
        }
    }

    @Test func failureMarkersFollowTheModificationTime() throws {
        let fixture = try CacheFixture()
        #expect(!fixture.cache.isMarkedFailed(path: sourceBytes, mtime: 10))
        try fixture.cache.markFailed(path: sourceBytes, mtime: 10, fileSize: 77)
        #expect(fixture.cache.isMarkedFailed(path: sourceBytes, mtime: 10))
        // The file changed since: try again.
        #expect(!fixture.cache.isMarkedFailed(path: sourceBytes, mtime: 11))
        #expect(!fixture.cache.isMarkedFailed(path: PathBytes("/home/jens/photos/other.png"), mtime: 10))
        // Another version of photod has its own markers.
        let newer = ThumbnailCache(rootPath: fixture.root, appName: "photod", appVersion: "1.3")
        #expect(!newer.isMarkedFailed(path: sourceBytes, mtime: 10))

        let marker = fixture.root + "/fail/photod-1.2/c6ee772d9e49320e97ec29a7eb5b1697.png"
        #expect(fixture.cache.failureMarkerPath(path: sourceBytes).map { String(decoding: $0, as: UTF8.self) } == marker)
        let bytes = try #require(FileManager.default.contents(atPath: marker).map(Array.init))
        let info = try #require(PNGChunks.read(bytes))
        #expect(info.width == 1 && info.height == 1)
        #expect(info.text(for: "Thumb::URI") == "file:///home/jens/photos/me.png")
        #expect(info.text(for: "Thumb::MTime") == "10")
        #expect(info.text(for: "Thumb::Size") == "77")
        #expect(CacheFixture.status(marker)?.mode == 0o600)
        #expect(CacheFixture.status(fixture.root + "/fail")?.mode == 0o700)
        #expect(CacheFixture.status(fixture.root + "/fail/photod-1.2")?.mode == 0o700)
        // A failure marker is not a thumbnail.
        #expect(fixture.cache.lookup(path: sourceBytes, mtime: 10, size: .normal) == nil)
    }

    @Test func hardCodedMarkerIsAValidPNG() throws {
        let info = try #require(PNGChunks.read(FailureMarker.png))
        #expect(info.width == 1 && info.height == 1 && info.text.isEmpty)
    }

    @Test func removeClearsEverySizeAndTheFailureMarker() throws {
        let fixture = try CacheFixture()
        let other = PathBytes("/home/jens/photos/keep.png")
        for size in ThumbnailSize.allCases {
            try fixture.cache.store(png: CacheFixture.thumbnail(width: 100, height: 100), path: sourceBytes, mtime: 3, fileSize: 1, size: size)
        }
        try fixture.cache.store(png: CacheFixture.thumbnail(), path: other, mtime: 3, fileSize: 1, size: .normal)
        try fixture.cache.markFailed(path: sourceBytes, mtime: 3, fileSize: 1)

        try fixture.cache.remove(path: sourceBytes)
        for size in ThumbnailSize.allCases {
            #expect(fixture.cache.lookup(path: sourceBytes, mtime: 3, size: size) == nil)
            #expect(CacheFixture.status(fixture.thumbnailPath(source, size)) == nil)
        }
        #expect(!fixture.cache.isMarkedFailed(path: sourceBytes, mtime: 3))
        #expect(CacheFixture.names(in: fixture.root + "/fail/photod-1.2").isEmpty)
        #expect(fixture.cache.lookup(path: other, mtime: 3, size: .normal) != nil)
        // Nothing left to remove, and no cache at all, are both fine.
        try fixture.cache.remove(path: sourceBytes)
        let empty = ThumbnailCache(rootPath: fixture.directory.file("none"), appVersion: "1.2")
        try empty.remove(path: sourceBytes)
        #expect(CacheFixture.status(fixture.directory.file("none")) == nil)
    }

    /// Many paths at once (a renamed folder's old paths): each one's thumbnails and marker go,
    /// the others' stay, and a path that names no file stops none of the rest.
    @Test func removingManyPathsAtOnceClearsEachAndReportsTheFirstFailureAtTheEnd() throws {
        let fixture = try CacheFixture()
        let paths = (0..<3).map { PathBytes("/home/jens/photos/\($0).jpg") }
        let kept = PathBytes("/home/jens/photos/kept.jpg")
        for path in paths + [kept] {
            try fixture.cache.store(png: CacheFixture.thumbnail(), path: path, mtime: 3, fileSize: 1, size: .normal)
            try fixture.cache.store(png: CacheFixture.thumbnail(width: 100, height: 100), path: path, mtime: 3, fileSize: 1, size: .large)
        }
        try fixture.cache.markFailed(path: paths[2], mtime: 3, fileSize: 1)
        let error = try #require(throws: ThumbnailCacheError.self) {
            try fixture.cache.remove(paths: [paths[0], PathBytes("relative.jpg"), paths[1], paths[2]])
        }
        #expect(error.reason == .notAbsolute)
        for path in paths {
            #expect(fixture.cache.lookup(path: path, mtime: 3, size: .normal) == nil)
            #expect(fixture.cache.lookup(path: path, mtime: 3, size: .large) == nil)
        }
        #expect(!fixture.cache.isMarkedFailed(path: paths[2], mtime: 3))
        #expect(fixture.cache.lookup(path: kept, mtime: 3, size: .normal) != nil)
        #expect(fixture.cache.lookup(path: kept, mtime: 3, size: .large) != nil)
        let none = ThumbnailCache(rootPath: fixture.directory.file("none"), appVersion: "1.2")
        try none.remove(paths: paths)
        #expect(CacheFixture.status(fixture.directory.file("none")) == nil)
    }

    @Test func defaultRootFollowsXDG() {
        #expect(ThumbnailCache.defaultRoot(environment: ["XDG_CACHE_HOME": "/c", "HOME": "/h"]) == "/c/thumbnails")
        #expect(ThumbnailCache.defaultRoot(environment: ["XDG_CACHE_HOME": "rel", "HOME": "/h"]) == "/h/.cache/thumbnails")
        #expect(ThumbnailCache.defaultRoot(environment: ["XDG_CACHE_HOME": "", "HOME": "/h"]) == "/h/.cache/thumbnails")
        #expect(ThumbnailCache.defaultRoot(environment: ["HOME": "/h"]) == "/h/.cache/thumbnails")
        #expect(ThumbnailCache.defaultRoot(environment: ["HOME": "h"]) == nil)
        #expect(ThumbnailCache.defaultRoot(environment: [:]) == nil)
    }

    @Test func storeMakesMissingParentsOfTheRoot() throws {
        let directory = try TemporaryDirectory()
        let root = directory.file("home/.cache/thumbnails")
        let cache = ThumbnailCache(rootPath: root, appVersion: "1")
        try cache.store(png: CacheFixture.thumbnail(), path: sourceBytes, mtime: 1, fileSize: 1, size: .normal)
        #expect(cache.lookup(path: sourceBytes, mtime: 1, size: .normal) != nil)
        #expect(CacheFixture.status(directory.file("home/.cache"))?.mode == 0o700)
    }
}
