import PhotoTestSupport
import Testing
import ThumbnailProtocol

@Suite struct ThumbnailSizeTests {
    @Test(arguments: ["JPEG", "PNG", "WEBP", "TIFF", "GIF"])
    func aWideImageFitsAndFillsTheBox(format: String) async throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("wide.\(format.lowercased())")
        try await Pillow.gradient(path, width: 600, height: 400, format: format)
        let worker = try WorkerProcess(in: folder)
        _ = try await worker.receive()

        let fit = try await worker.thumbnail(ThumbnailRequest(id: 1, fit: .inside, format: .png, width: 256, height: 256),
                                       file: path)
        #expect(fit.status == .ok, "\(fit.message)")
        #expect((fit.id, fit.width, fit.height) == (1, 256, 171))
        #expect((fit.sourceWidth, fit.sourceHeight) == (600, 400))
        let fitDecoded = try await Pillow.inspect(fit.image, in: folder)
        #expect((fitDecoded.width, fitDecoded.height) == (256, 171))

        let fill = try await worker.thumbnail(ThumbnailRequest(id: 2, fit: .fill, format: .jpeg, width: 256, height: 256),
                                        file: path)
        #expect(fill.status == .ok, "\(fill.message)")
        #expect((fill.id, fill.width, fill.height, fill.format) == (2, 256, 256, .jpeg))
        #expect(Array(fill.image.prefix(3)) == [0xFF, 0xD8, 0xFF])
        let fillDecoded = try await Pillow.inspect(fill.image, in: folder)
        #expect((fillDecoded.width, fillDecoded.height) == (256, 256))
        #expect(fill.cache.isEmpty)
    }

    @Test(arguments: [ThumbnailFit.inside, .fill])
    func aSmallImageIsNeverUpscaled(fit: ThumbnailFit) async throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("small.jpg")
        try await Pillow.gradient(path, width: 100, height: 50, format: "JPEG")
        let worker = try WorkerProcess(in: folder)
        _ = try await worker.receive()
        let response = try await worker.thumbnail(ThumbnailRequest(id: 9, fit: fit, width: 256, height: 256), file: path)
        #expect(response.status == .ok, "\(response.message)")
        #expect((response.width, response.height) == (100, 50))
    }

    @Test func theCacheCopyIsAPNGOfTheSameThumbnail() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("wide.png")
        try await Pillow.gradient(path, width: 600, height: 400, format: "PNG")
        let worker = try WorkerProcess(in: folder)
        _ = try await worker.receive()
        let request = ThumbnailRequest(id: 3, format: .jpeg, wantsCacheCopy: true, width: 300, height: 100, jpegQuality: 60)
        let response = try await worker.thumbnail(request, file: path)
        #expect(response.status == .ok, "\(response.message)")
        #expect((response.width, response.height) == (150, 100))
        #expect(Array(response.cache.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let cache = try await Pillow.inspect(response.cache, in: folder)
        #expect((cache.width, cache.height) == (150, 100))
        // Stored without deflate (photod_vips_pngsave_stored): every RGB byte and a filter byte a row.
        #expect(response.cache.count >= 100 * (150 * 3 + 1), "\(response.cache.count) bytes")
    }
}
