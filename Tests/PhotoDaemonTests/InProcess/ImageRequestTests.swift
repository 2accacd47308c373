import FileSystem
import Foundation
import PhotoAPI
import PhotoClient
import PhotoTestSupport
import Testing
import ThumbnailCache
import Varlink
@testable import PhotoDaemon

/// RequestImage served in process with the real sandboxed workers and a real thumbnail cache.
@Suite(.timeLimit(.minutes(2)))
struct ImageRequestTests {
    static let embedded = JPEGFixture.make(exif: nil, width: 160, height: 120)

    /// A file's only asset id.
    static func id(of daemon: TestDaemon, _ client: PhotoClient, _ name: String) async throws -> String {
        let assets = try await client.allAssets(group: nil)
        return try #require(assets.first { $0.path.hasSuffix("/" + name) }?.id)
    }

    static func errorName(_ body: () async throws -> Void) async -> (name: String, parameters: [UInt8])? {
        do {
            try await body()
        } catch PhotoClientError.daemon(let error) {
            return (error.name, error.parametersJSON)
        } catch {
            Issue.record("unexpected error \(error)")
        }
        return nil
    }

    @Test func fastServesTheEmbeddedThumbnailAsItIsWithTheOrientationStillToApply() async throws {
        try await TestDaemon.withDaemon(prepare: { daemon in
            try daemon.add("sideways.jpg", JPEGFixture.make(
                exif: ExifFixture(description: "Beach", orientation: 6, thumbnail: Self.embedded), width: 640, height: 480))
        }) { daemon in
            let client = try await daemon.client()
            let id = try await Self.id(of: daemon, client, "sideways.jpg")
            let reply = try await client.requestImage(RequestImageParameters(id: id, width: 256, height: 256,
                                                                             deliveryMode: .fast))
            #expect(reply.source == .embedded)
            #expect(Array(Data(base64Encoded: reply.data) ?? Data()) == Self.embedded)
            #expect(reply.format == .jpeg && reply.width == 160 && reply.height == 120)
            #expect(reply.orientation == 6)
            // 160 px where 256 was asked: an interim image.
            #expect(reply.degraded)
            await client.close()
        }
    }

    @Test func aStandardSizeIsDecodedUprightOnceThenServedFromACacheFileThatPassesTheStandard() async throws {
        try await TestDaemon.withDaemon(prepare: { daemon in
            try await PillowFixture.write(daemon.dir.file("library/turned.jpg"), width: 600, height: 400, orientation: 6)
        }) { daemon in
            let client = try await daemon.client()
            let id = try await Self.id(of: daemon, client, "turned.jpg")
            let first = try await client.requestImage(RequestImageParameters(id: id, width: 256, height: 256))
            #expect(first.source == .decoded && first.format == .jpeg && !first.degraded)
            let probe = try await PillowFixture.probe(Array(try #require(Data(base64Encoded: first.data))))
            #expect(probe.width == 256 && probe.height == 171)
            #expect(probe.colours == PillowFixture.uprightCorners)

            let path = daemon.library + "/turned.jpg"
            let cache = ThumbnailCache(rootPath: daemon.dir.file("cache/thumbnails"), appVersion: PhotodVersion.current)
            let file = try #require(cache.thumbnailPath(path: PathBytes(path), size: .large))
            let png = Array(try Data(contentsOf: URL(fileURLWithPath: String(decoding: file, as: UTF8.self))))
            let info = try #require(PNGChunks.read(png))
            let attributes = try FileManager.default.attributesOfItem(atPath: String(decoding: file, as: UTF8.self))
            let mtime = Int64(((attributes[.modificationDate] as? Date) ?? .distantPast).timeIntervalSince1970)
            let source = try FileManager.default.attributesOfItem(atPath: path)
            #expect(info.text(for: "Thumb::URI") == "file://" + path)
            #expect(info.text(for: "Thumb::MTime") == "\(Int64(((source[.modificationDate] as? Date) ?? .distantPast).timeIntervalSince1970))")
            #expect(info.text(for: "Thumb::Size") == "\((source[.size] as? Int) ?? -1)")
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
            #expect(mtime > 0 && info.width == 256 && info.height == 171)

            // A request that takes any format now gets the cached PNG without a worker.
            let second = try await client.requestImage(RequestImageParameters(id: id, width: 256, height: 256))
            #expect(second.source == .cache && second.format == .png)
            #expect(Array(Data(base64Encoded: second.data) ?? Data()) == png)
            let status = try await client.status()
            #expect(status.thumbnails?.cacheHits == 1 && status.thumbnails?.decoded == 1)

            // The file changes (a new mtime): the cached thumbnail no longer counts and is replaced.
            let later = Date(timeIntervalSince1970: TimeInterval(try ImageWorkerFailureTests.mtime(path) + 100))
            try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: path)
            let third = try await client.requestImage(RequestImageParameters(id: id, width: 256, height: 256))
            #expect(third.source == .decoded)
            let replaced = Array(try Data(contentsOf: URL(fileURLWithPath: String(decoding: file, as: UTF8.self))))
            #expect(PNGChunks.read(replaced)?.text(for: "Thumb::MTime") == "\(Int64(later.timeIntervalSince1970))")
            await client.close()
        }
    }

    @Test func aCorruptFileFailsWithAClearErrorAndAFailMarkerAndIsNotRetried() async throws {
        try await TestDaemon.withDaemon(prepare: { daemon in
            try daemon.add("broken.jpg", [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0x41, count: 2000))
        }) { daemon in
            let client = try await daemon.client()
            let id = try await Self.id(of: daemon, client, "broken.jpg")
            let refusal = await Self.errorName { _ = try await client.requestImage(RequestImageParameters(id: id, width: 128, height: 128)) }
            #expect(refusal?.name == LibraryInterface.Error.imageUnavailable)
            let reason = refusal.flatMap { try? JSONDecoder().decode(ImageUnavailableError.self, from: Data($0.parameters)) }?.reason
            #expect(reason?.contains("this file cannot be decoded: it is damaged or cut short") == true, "\(reason ?? "")")
            let cache = ThumbnailCache(rootPath: daemon.dir.file("cache/thumbnails"), appVersion: PhotodVersion.current)
            let path = PathBytes(daemon.library + "/broken.jpg")
            let marker = try #require(cache.failureMarkerPath(path: path))
            #expect(FileManager.default.fileExists(atPath: String(decoding: marker, as: UTF8.self)))

            let again = await Self.errorName { _ = try await client.requestImage(RequestImageParameters(id: id, width: 128, height: 128)) }
            let againReason = again.flatMap { try? JSONDecoder().decode(ImageUnavailableError.self, from: Data($0.parameters)) }?.reason
            #expect(againReason?.contains("fail/ marker") == true)
            #expect(try await client.status().thumbnails?.failed == 1)
            await client.close()
        }
    }

    @Test func aBoxOver2048IsRefusedNamingOpenOriginal() async throws {
        try await TestDaemon.withDaemon(prepare: { try $0.add("a.jpg", TestPhoto.jpeg("A")) }) { daemon in
            let client = try await daemon.client()
            let id = try await Self.id(of: daemon, client, "a.jpg")
            let refusal = await Self.errorName { _ = try await client.requestImage(RequestImageParameters(id: id, width: 4096, height: 100)) }
            #expect(refusal?.name == LibraryInterface.Error.imageTooLarge)
            let hint = refusal.flatMap { try? JSONDecoder().decode(ImageTooLargeError.self, from: Data($0.parameters)) }
            #expect(hint?.maximum == 2048 && hint?.hint.contains("OpenOriginal") == true)
            let zero = await Self.errorName { _ = try await client.requestImage(RequestImageParameters(id: id, width: 0, height: 100)) }
            #expect(zero?.name == "org.varlink.service.InvalidParameter")
            await client.close()
        }
    }

    @Test func thumbnailsOfAFileThatLeavesTheLibraryAreSwept() async throws {
        try await TestDaemon.withDaemon(prepare: { daemon in
            try await PillowFixture.write(daemon.dir.file("library/gone.jpg"), width: 300, height: 200)
        }) { daemon in
            let client = try await daemon.client()
            let id = try await Self.id(of: daemon, client, "gone.jpg")
            _ = try await client.requestImage(RequestImageParameters(id: id, width: 128, height: 128))
            let cache = ThumbnailCache(rootPath: daemon.dir.file("cache/thumbnails"), appVersion: PhotodVersion.current)
            let path = PathBytes(daemon.library + "/gone.jpg")
            let file = String(decoding: try #require(cache.thumbnailPath(path: path, size: .normal)), as: UTF8.self)
            #expect(FileManager.default.fileExists(atPath: file))
            try FileManager.default.removeItem(atPath: daemon.library + "/gone.jpg")
            #expect(await eventually(within: 60) { !FileManager.default.fileExists(atPath: file) })
            await client.close()
        }
    }
}

/// `[thumbnails] prefill`: the large thumbnails made ahead of time, through the background worker.
@Suite(.timeLimit(.minutes(2)))
struct CachePrefillTests {
    @Test func prefillMakesEveryLargeThumbnailAndSaysSoInStatus() async throws {
        try await TestDaemon.withDaemon({ $0.thumbnails.prefill = true }, prepare: { daemon in
            try await PillowFixture.write(daemon.dir.file("library/one.jpg"), width: 600, height: 400)
            try await PillowFixture.write(daemon.dir.file("library/two.png"), width: 200, height: 300, format: "PNG")
            try daemon.add("broken.jpg", [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0x41, count: 500))
        }) { daemon in
            let client = try await daemon.client()
            #expect(await eventually(within: 60) { (try? await client.status().thumbnails?.prefill) == .done })
            let thumbnails = try #require(try await client.status().thumbnails)
            #expect(thumbnails.prefilled == 3)
            let cache = ThumbnailCache(rootPath: daemon.dir.file("cache/thumbnails"), appVersion: PhotodVersion.current)
            for (name, width, height) in [("one.jpg", 256, 171), ("two.png", 171, 256)] {
                let path = daemon.library + "/" + name
                let found = cache.lookup(path: PathBytes(path), mtime: try ImageWorkerFailureTests.mtime(path), size: .large)
                #expect(found?.width == width && found?.height == height, "\(name)")
            }
            // The file no worker can decode got its fail/ marker instead, once.
            let broken = daemon.library + "/broken.jpg"
            #expect(cache.isMarkedFailed(path: PathBytes(broken), mtime: try ImageWorkerFailureTests.mtime(broken)))
            // Requests are then answered from the cache.
            let id = try await ImageRequestTests.id(of: daemon, client, "one.jpg")
            let reply = try await client.requestImage(RequestImageParameters(id: id, width: 256, height: 256))
            #expect(reply.source == .cache)
            await client.close()
        }
    }

    /// The first worker the prefill starts ends before its hello, as one that cannot start in
    /// time on a loaded machine does: that photo is tried again at the end of the pass, so the
    /// pass that says done has left it its thumbnail.
    @Test func aPhotoNoWorkerTookIsTriedAgainBeforeThePassIsDone() async throws {
        let scripts = try TemporaryDirectory()
        let real = Binaries.productsFolder.appendingPathComponent("photod-thumbnailer").path
        let failOnce = scripts.file("fail-next")
        try scripts.write("fail-next", [])
        let worker = try scripts.write("worker", Array("""
            #!/bin/sh
            if [ -e "\(failOnce)" ]; then rm -f "\(failOnce)"; exit 1; fi
            exec "\(real)" "$@"

            """.utf8))
        chmod(worker, 0o755)
        try await TestDaemon.withDaemon({ $0.thumbnails.prefill = true; $0.thumbnails.worker = worker }, prepare: { daemon in
            try await PillowFixture.write(daemon.dir.file("library/a.jpg"), width: 600, height: 400)
            try await PillowFixture.write(daemon.dir.file("library/b.jpg"), width: 400, height: 600)
        }) { daemon in
            let client = try await daemon.client()
            #expect(await eventually(within: 60) { (try? await client.status().thumbnails?.prefill) == .done })
            #expect(!FileManager.default.fileExists(atPath: failOnce), "the first worker did fail")
            let cache = ThumbnailCache(rootPath: daemon.dir.file("cache/thumbnails"), appVersion: PhotodVersion.current)
            for name in ["a.jpg", "b.jpg"] {
                let path = daemon.library + "/" + name
                #expect(cache.lookup(path: PathBytes(path), mtime: try ImageWorkerFailureTests.mtime(path), size: .large) != nil, "\(name)")
            }
            await client.close()
        }
    }
}
