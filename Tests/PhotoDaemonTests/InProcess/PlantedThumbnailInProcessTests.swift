import FileSystem
import Foundation
import PhotoAPI
import PhotoTestSupport
import Testing
import ThumbnailCache
@testable import PhotoDaemon

/// A file another program put in the shared thumbnail cache under a photo's name is not served
/// as photod's unless it describes the photo as it is; otherwise the photo is decoded afresh
/// and the planted file replaced.
@Suite(.timeLimit(.minutes(2)))
struct PlantedThumbnailInProcessTests {
    /// Plants an 8×8 picture tagged with `path`'s URI and modification time and `size` as its `large` thumbnail.
    static func plant(_ daemon: TestDaemon, path: String, size: Int64, mode: mode_t) throws -> String {
        let cache = ThumbnailCache(rootPath: daemon.dir.file("cache/thumbnails"), appVersion: PhotodVersion.current)
        let file = String(decoding: try #require(cache.thumbnailPath(path: PathBytes(path), size: .large)), as: UTF8.self)
        for folder in [daemon.dir.file("cache"), daemon.dir.file("cache/thumbnails"), daemon.dir.file("cache/thumbnails/large")] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            #expect(chmod(folder, 0o700) == 0)
        }
        let text = [PNGText(keyword: "Thumb::URI", text: "file://" + path),
                    PNGText(keyword: "Thumb::MTime", text: String(try ImageWorkerFailureTests.mtime(path))),
                    PNGText(keyword: "Thumb::Size", text: String(size))]
        let png = try PNGChunks.insertingText(text, into: PNGFixture(exifChunk: nil, width: 8, height: 8).make())
        try Data(png).write(to: URL(fileURLWithPath: file))
        #expect(chmod(file, mode) == 0)
        return file
    }

    static func fileSize(_ path: String) throws -> Int64 {
        Int64((try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? -1)
    }

    @Test(arguments: [(sizeOff: Int64(1), mode: mode_t(0o600)), (sizeOff: 0, mode: 0o644)])
    func aPlantedThumbnailIsNotServedAndIsReplaced(sizeOff: Int64, mode: mode_t) async throws {
        try await TestDaemon.withDaemon(prepare: { daemon in
            try await PillowFixture.write(daemon.dir.file("library/photo.jpg"), width: 600, height: 400)
        }) { daemon in
            let path = daemon.library + "/photo.jpg"
            // Another picture under the photo's name, right URI and mtime: a wrong Thumb::Size, or open to others.
            let planted = try Self.plant(daemon, path: path, size: try Self.fileSize(path) + sizeOff, mode: mode)
            let client = try await daemon.client()
            let id = try await ImageRequestTests.id(of: daemon, client, "photo.jpg")
            let reply = try await client.requestImage(RequestImageParameters(id: id, width: 256, height: 256))
            #expect(reply.source == .decoded && reply.width == 256 && reply.height == 171)
            // Replaced by photod's own, which the next request is served from.
            let replaced = try #require(PNGChunks.read(Array(try Data(contentsOf: URL(fileURLWithPath: planted)))))
            let size = String(try Self.fileSize(path))
            #expect(replaced.width == 256 && replaced.text(for: "Thumb::Size") == size)
            let attributes = try FileManager.default.attributesOfItem(atPath: planted)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
            let again = try await client.requestImage(RequestImageParameters(id: id, width: 256, height: 256))
            #expect(again.source == .cache && again.width == 256)
            await client.close()
        }
    }
}
