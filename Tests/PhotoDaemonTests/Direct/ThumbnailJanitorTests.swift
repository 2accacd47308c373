import FileSystem
import Foundation
import PhotoAPI
import PhotoTestSupport
import Testing
import ThumbnailCache
@testable import PhotoDaemon

/// The janitor keeps photod's thumbnails within `[thumbnails] cache_max_mib`.
@Suite(.timeLimit(.minutes(1)))
struct ThumbnailJanitorTests {
    @Test func theJanitorTrimsPhotodsOldestThumbnailsPastTheBound() async throws {
        let dir = try TemporaryDirectory()
        let cache = ThumbnailCache(rootPath: dir.file("thumbnails"), appVersion: PhotodVersion.current)
        var files: [String] = []
        for index in 0..<5 {
            let source = PathBytes("/photos/\(index).jpg")
            try cache.store(png: PNGFixture(exifChunk: nil, width: 128, height: 100).make(), path: source,
                            mtime: 1, fileSize: 1, size: .normal)
            let file = String(decoding: try #require(cache.thumbnailPath(path: source, size: .normal)), as: UTF8.self)
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: Double(1_000 + index))],
                                                  ofItemAtPath: file)
            files.append(file)
        }
        let each = Int64((try FileManager.default.attributesOfItem(atPath: files[0])[.size] as? Int) ?? 0)
        let recorder = LogRecorder()
        let janitor = ThumbnailJanitor(maxBytes: 2 * each, trimInterval: .milliseconds(50))
        let running = Task { await janitor.run(cache: cache, logger: recorder.logger()) }
        #expect(await eventually(within: 20) { !FileManager.default.fileExists(atPath: files[2]) })
        janitor.finish()
        await running.value
        #expect(files.map { FileManager.default.fileExists(atPath: $0) } == [false, false, false, true, true])
        #expect(recorder.contains("removed photod's oldest thumbnails past the cache bound"), "\(recorder.text)")
    }

    @Test func theBoundIsReadFromTheConfigInMiB() throws {
        let dir = try TemporaryDirectory()
        let paths = DefaultPaths(environment: ["HOME": "/home/ann", "XDG_RUNTIME_DIR": "/run/user/1000"])
        let file = try dir.write("photod.toml", Array("[thumbnails]\ncache_max_mib = 64\n".utf8))
        #expect(try ConfigLoader(paths: paths).load(DaemonOverrides(configFile: file)).thumbnails.cacheMaxBytes == 64 << 20)
        #expect(DaemonConfig.defaults(paths: paths).thumbnails.cacheMaxBytes == 512 << 20)
        for bad in ["0", "15", "1048577", "\"big\""] {
            let wrong = try dir.write("bad.toml", Array("[thumbnails]\ncache_max_mib = \(bad)\n".utf8))
            #expect(throws: ConfigError.self) { try ConfigLoader(paths: paths).load(DaemonOverrides(configFile: wrong)) }
        }
    }
}
