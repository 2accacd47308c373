import FileSystem
import Foundation
import PhotoTestSupport
import Testing
@testable import ThumbnailCache

/// What the cache refuses: folders it must not write through, files it must not read, and
/// what it must leave behind (private modes, no temporary files).
@Suite struct CacheSafetyTests {
    private let source = PathBytes("/photos/a.png")

    @Test func filesAre0600AndFolders0700() throws {
        let fixture = try CacheFixture()
        try fixture.cache.store(png: CacheFixture.thumbnail(), path: source, mtime: 1, fileSize: 1, size: .xLarge)
        let file = try #require(fixture.cache.thumbnailPath(path: source, size: .xLarge)).string
        #expect(CacheFixture.status(file)?.mode == 0o600)
        #expect(CacheFixture.status(fixture.root)?.mode == 0o700)
        #expect(CacheFixture.status(fixture.root + "/x-large")?.mode == 0o700)
    }

    @Test func symlinkedSizeFolderIsRefusedAndNotWrittenThrough() throws {
        let fixture = try CacheFixture()
        let elsewhere = fixture.directory.file("elsewhere")
        try CacheFixture.makeFolder(fixture.root)
        try CacheFixture.makeFolder(elsewhere)
        try FileManager.default.createSymbolicLink(atPath: fixture.root + "/normal", withDestinationPath: elsewhere)

        let error = try #require(throws: ThumbnailCacheError.self) {
            try fixture.cache.store(png: CacheFixture.thumbnail(), path: source, mtime: 1, fileSize: 1, size: .normal)
        }
        #expect(error.reason == .symlink)
        #expect(error.path.string == fixture.root + "/normal")
        #expect(error.description.contains(fixture.root + "/normal") && error.description.contains("symlink"))
        #expect(CacheFixture.names(in: elsewhere).isEmpty)
        // remove refuses it too, rather than unlinking inside the link's target.
        #expect(throws: ThumbnailCacheError.self) { try fixture.cache.remove(path: source) }
    }

    @Test func symlinkedRootIsRefused() throws {
        let fixture = try CacheFixture()
        let real = fixture.directory.file("real")
        try CacheFixture.makeFolder(real)
        try FileManager.default.createSymbolicLink(atPath: fixture.root, withDestinationPath: real)
        let error = try #require(throws: ThumbnailCacheError.self) {
            try fixture.cache.store(png: CacheFixture.thumbnail(), path: source, mtime: 1, fileSize: 1, size: .normal)
        }
        #expect(error.reason == .symlink)
        #expect(CacheFixture.names(in: real).isEmpty)
    }

    @Test func sizeFolderThatIsAFileIsRefused() throws {
        let fixture = try CacheFixture()
        try fixture.directory.write("thumbnails/large", [1, 2, 3])
        let error = try #require(throws: ThumbnailCacheError.self) {
            try fixture.cache.store(png: CacheFixture.thumbnail(), path: source, mtime: 1, fileSize: 1, size: .large)
        }
        #expect(error.reason == .notADirectory)
        #expect(error.description.contains("/thumbnails/large: is not a directory"))
    }

    /// Someone else's folder is refused and left exactly as it was (no chmod, no chown).
    @Test func folderOfAnotherUserIsRefusedUntouched() throws {
        let fixture = try CacheFixture()
        let folder: String
        let cache: ThumbnailCache
        if geteuid() == 0 {
            // As root, hand the size folder to another uid.
            try CacheFixture.makeFolder(fixture.root)
            folder = fixture.root + "/normal"
            try CacheFixture.makeFolder(folder, mode: 0o755)
            #expect(chown(folder, 4242, 4242) == 0)
            cache = fixture.cache
        } else {
            // Without root, use a folder root owns as the cache root.
            folder = "/usr"
            cache = ThumbnailCache(rootPath: folder, appVersion: "1.2")
        }
        let before = try #require(CacheFixture.status(folder))
        #expect(before.owner != geteuid())
        let error = try #require(throws: ThumbnailCacheError.self) {
            try cache.store(png: CacheFixture.thumbnail(), path: source, mtime: 1, fileSize: 1, size: .normal)
        }
        #expect(error.reason == .notOwned(owner: before.owner))
        #expect(error.path.string == folder)
        let after = try #require(CacheFixture.status(folder))
        #expect(after.mode == before.mode && after.owner == before.owner)
        if geteuid() == 0 { #expect(CacheFixture.names(in: folder).isEmpty) }
    }

    @Test func folderWritableByOthersIsRefused() throws {
        let fixture = try CacheFixture()
        try CacheFixture.makeFolder(fixture.root, mode: 0o777)
        let error = try #require(throws: ThumbnailCacheError.self) {
            try fixture.cache.store(png: CacheFixture.thumbnail(), path: source, mtime: 1, fileSize: 1, size: .normal)
        }
        #expect(error.reason == .writableByOthers(mode: UInt32(S_IFDIR) | 0o777))
        #expect(CacheFixture.status(fixture.root)?.mode == 0o777)
        #expect(CacheFixture.names(in: fixture.root).isEmpty)
    }

    @Test func noTemporaryFilesAreLeftBehind() throws {
        let fixture = try CacheFixture()
        for index in 0..<20 {
            let path = PathBytes("/photos/\(index).png")
            try fixture.cache.store(png: CacheFixture.thumbnail(), path: path, mtime: 1, fileSize: 1, size: .normal)
            try fixture.cache.store(png: CacheFixture.thumbnail(), path: path, mtime: 2, fileSize: 1, size: .normal)
            try fixture.cache.markFailed(path: path, mtime: 1, fileSize: 1)
        }
        let thumbnails = CacheFixture.names(in: fixture.root + "/normal")
        let markers = CacheFixture.names(in: fixture.root + "/fail/photod-1.2")
        #expect(thumbnails.count == 20 && thumbnails.allSatisfy(isCacheFileName))
        #expect(markers.count == 20 && markers.allSatisfy(isCacheFileName))
        #expect(CacheFixture.names(in: fixture.root) == ["fail", "normal"])
    }

    @Test func failedWriteRemovesItsTemporaryFile() throws {
        let fixture = try CacheFixture()
        // A folder in the thumbnail's place makes the final rename fail (EISDIR).
        let blocker = try #require(fixture.cache.thumbnailPath(path: source, size: .normal)).string
        try CacheFixture.makeFolder(blocker)
        let error = try #require(throws: ThumbnailCacheError.self) {
            try fixture.cache.store(png: CacheFixture.thumbnail(), path: source, mtime: 1, fileSize: 1, size: .normal)
        }
        #expect(error.reason == .system(operation: "rename", errno: EISDIR))
        #expect(error.description.contains(blocker) && error.description.contains(String(cString: strerror(EISDIR))))
        #expect(CacheFixture.names(in: fixture.root + "/normal") == [(blocker as NSString).lastPathComponent])
    }

    @Test func lookupRefusesWhatIsNotAPlainFile() throws {
        let fixture = try CacheFixture()
        try fixture.cache.store(png: CacheFixture.thumbnail(), path: source, mtime: 1, fileSize: 1, size: .normal)
        let real = try #require(fixture.cache.thumbnailPath(path: source, size: .normal)).string
        #expect(fixture.cache.lookup(path: source, mtime: 1, size: .normal) != nil)

        // A symlink to a valid thumbnail is not followed.
        let linked = PathBytes("/photos/linked.png")
        let linkPath = try #require(fixture.cache.thumbnailPath(path: linked, size: .normal)).string
        try fixture.cache.store(png: CacheFixture.thumbnail(), path: linked, mtime: 1, fileSize: 1, size: .large)
        let target = try #require(fixture.cache.thumbnailPath(path: linked, size: .large)).string
        try FileManager.default.createSymbolicLink(atPath: linkPath, withDestinationPath: target)
        #expect(fixture.cache.lookup(path: linked, mtime: 1, size: .large) != nil)
        #expect(fixture.cache.lookup(path: linked, mtime: 1, size: .normal) == nil)

        // A FIFO in a thumbnail's place neither hangs nor is read.
        try FileManager.default.removeItem(atPath: real)
        #expect(mkfifo(real, 0o600) == 0)
        #expect(fixture.cache.lookup(path: source, mtime: 1, size: .normal) == nil)
    }

    @Test func lookupRefusesFilesOverTheCap() throws {
        let fixture = try CacheFixture()
        try fixture.cache.store(png: CacheFixture.thumbnail(), path: source, mtime: 1, fileSize: 1, size: .normal)
        let path = try #require(fixture.cache.thumbnailPath(path: source, size: .normal)).string
        // Sparse: past the cap without writing 16 MiB; the valid PNG stays at the start.
        #expect(truncate(path, off_t(ThumbnailCache.maxFileSize + 1)) == 0)
        #expect(fixture.cache.lookup(path: source, mtime: 1, size: .normal) == nil)
    }

    @Test func corruptCacheFilesAreMisses() throws {
        let fixture = try CacheFixture()
        try fixture.cache.store(png: CacheFixture.thumbnail(), path: source, mtime: 1, fileSize: 1, size: .normal)
        let path = try #require(fixture.cache.thumbnailPath(path: source, size: .normal)).string
        let bytes = try #require(FileManager.default.contents(atPath: path).map(Array.init))
        try Data(bytes.prefix(bytes.count - 5)).write(to: URL(fileURLWithPath: path))
        #expect(fixture.cache.lookup(path: source, mtime: 1, size: .normal) == nil)
    }

    /// Readers racing writers of the same thumbnail only ever see a whole file.
    @Test func readersNeverSeeHalfAFile() async throws {
        let fixture = try CacheFixture()
        let cache = fixture.cache
        let path = try #require(cache.thumbnailPath(path: source, size: .xLarge))
        let pngs = [CacheFixture.thumbnail(width: 500, height: 400), CacheFixture.thumbnail(width: 300, height: 500)]
        try cache.store(png: pngs[0], path: source, mtime: 1, fileSize: 1, size: .xLarge)
        let source = source
        let torn = try await withThrowingTaskGroup(of: Int.self) { group in
            for writer in 0..<2 {
                group.addTask {
                    for round in 0..<40 {
                        try cache.store(png: pngs[(writer + round) % 2], path: source, mtime: 1, fileSize: 1, size: .xLarge)
                    }
                    return 0
                }
            }
            group.addTask {
                var torn = 0
                for _ in 0..<200 {
                    let bytes = CacheFiles.readSmallFile(path, limit: ThumbnailCache.maxFileSize)
                    if bytes.flatMap(PNGChunks.read) == nil { torn += 1 }
                }
                return torn
            }
            return try await group.reduce(0, +)
        }
        #expect(torn == 0)
        #expect(CacheFixture.names(in: fixture.root + "/x-large").count == 1)
    }

    @Test func errorDescriptionsEscapeControlBytes() {
        let error = ThumbnailCacheError(path: Array("/a\u{1B}[31m".utf8) + [0xFF], reason: .system(operation: "open", errno: ENOENT))
        #expect(error.description == "thumbnail cache: /a\\x1B[31m\\xFF: open failed: No such file or directory")
    }
}

extension [UInt8] {
    /// The bytes as a String, for Foundation and comparisons (the paths in these tests are UTF-8).
    var string: String { String(decoding: self, as: UTF8.self) }
}
