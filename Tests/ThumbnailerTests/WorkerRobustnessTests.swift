import Foundation
import PhotoTestSupport
import Testing
import ThumbnailProtocol

@Suite struct WorkerRobustnessTests {
    @Test func helloNamesTheLibraryAndOnlyTrustedLoaders() async throws {
        let folder = try TemporaryDirectory()
        let worker = try WorkerProcess(in: folder)
        let hello = try await worker.receive()
        #expect((hello.id, hello.status) == (0, .ok))
        #expect(hello.message.hasPrefix("photod-thumbnailer 8."))
        let loaders = hello.message.split(separator: ":").last.map { $0.split(separator: " ").map(String.init) } ?? []
        #expect(Set(["jpeg", "png", "webp", "tiff", "gif"]).isSubset(of: loaders), "\(hello.message)")
        // libvips' HEIF and JPEG XL modules, loaded by the worker itself (VipsRuntime.start).
        #expect(Set(["heif", "jxl", "jp2k"]).isSubset(of: loaders), "\(hello.message)")
        #expect(Set(loaders).isDisjoint(with: ["magick", "pdf", "svg", "matrix", "csv", "fits", "vips"]), "\(hello.message)")
        #expect(hello.peakRSSKiB > 0)
        // The probe runs only behind its flag, which photod never passes.
        #expect(!hello.message.contains("probe"), "\(hello.message)")
    }

    /// dav1d, refused sched_getaffinity, writes a line to stderr on every AVIF; the test worker's
    /// stderr is a regular file, which RLIMIT_FSIZE 0 would turn into SIGXFSZ.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: Self.avif), "../shared/corpus is not beside this checkout"))
    func anAVIFDecodesWithStandardErrorInAFile() async throws {
        let folder = try TemporaryDirectory()
        let worker = try await WorkerProcess.ready(in: folder)
        let response = try await worker.thumbnail(ThumbnailRequest(id: 4, format: .png, width: 256, height: 256),
                                                  file: Self.avif)
        #expect(response.status == .ok, "\(response.message)")
        #expect((response.width, response.height) == (256, 192))
    }

    /// An 800x600 AVIF of the shared corpus.
    static let avif = Binaries.repository.deletingLastPathComponent()
        .appendingPathComponent("shared/corpus/images/me_avif_32Bit-72dpi-sRGB-800x600.avif").path

    @Test func corruptFilesFailAndTheWorkerCarriesOn() async throws {
        let folder = try TemporaryDirectory()
        let good = folder.file("good.jpg")
        try await Pillow.gradient(good, width: 640, height: 480, format: "JPEG")
        let jpeg = try [UInt8](Data(contentsOf: URL(fileURLWithPath: good)))
        var generator = SplitMix64(seed: 7)
        let corrupt = [
            try folder.write("truncated.jpg", Array(jpeg.prefix(40))),
            try folder.write("random.bin", (0..<4096).map { _ in UInt8(truncatingIfNeeded: generator.next()) }),
            try folder.write("headless.jpg", [0xFF, 0xD8, 0xFF] + Array(jpeg.dropFirst(600))),
            try folder.write("empty.png", []),
        ]
        let worker = try WorkerProcess(in: folder)
        _ = try await worker.receive()
        for (index, path) in corrupt.enumerated() {
            let id = UInt64(10 + index)
            let bad = try await worker.thumbnail(ThumbnailRequest(id: id, width: 128, height: 128), file: path)
            #expect((bad.id, bad.status) == (id, .undecodable), "\(path)")
            #expect(!bad.message.isEmpty && bad.message.utf8.count <= 1024)
            #expect(!bad.message.unicodeScalars.contains { $0.properties.generalCategory == .control })
            let next = try await worker.thumbnail(ThumbnailRequest(id: id + 100, width: 128, height: 128), file: good)
            #expect((next.id, next.status, next.width, next.height) == (id + 100, .ok, 128, 96), "\(next.message)")
        }
        await #expect(worker.closeAndWait() == 0)
        #expect(worker.stderrText.isEmpty, "stderr: \(worker.stderrText)")
    }

    @Test func endOfTheSocketEndsTheWorkerWithStatusZero() async throws {
        let folder = try TemporaryDirectory()
        let worker = try WorkerProcess(in: folder)
        _ = try await worker.receive()
        await #expect(worker.closeAndWait() == 0)
        #expect(worker.stderrText.isEmpty)
    }

    @Test func aBrokenFrameIsRefusedAndEndsTheWorker() async throws {
        let folder = try TemporaryDirectory()
        let worker = try WorkerProcess(in: folder)
        _ = try await worker.receive()
        var frame = ThumbnailRequest(id: 1, width: 10, height: 10).encode()
        frame[20] = 0  // width 0
        try worker.sendRaw(frame)
        let answer = try await worker.receive()
        #expect((answer.id, answer.status) == (0, .badRequest))
        #expect(answer.message.contains("width"))
        await #expect(worker.closeAndWait() == 2)
    }

    @Test func aRequestWithoutAFileIsABadRequestNotTheEnd() async throws {
        let folder = try TemporaryDirectory()
        let good = folder.file("good.png")
        try await Pillow.gradient(good, width: 40, height: 20, format: "PNG")
        let worker = try WorkerProcess(in: folder)
        _ = try await worker.receive()
        try worker.sendRaw(ThumbnailRequest(id: 5, width: 10, height: 10).encode())
        let answer = try await worker.receive()
        #expect((answer.id, answer.status) == (5, .badRequest))
        let next = try await worker.thumbnail(ThumbnailRequest(id: 6, width: 10, height: 10), file: good)
        #expect((next.id, next.status, next.width, next.height) == (6, .ok, 10, 5))
    }
}
