import Foundation
import PhotoTestSupport
import Testing
import ThumbnailProtocol

@Suite struct SandboxTests {
    @Test func theFilterRefusesExecSocketsAndWritesOnceInPlace() throws {
        let folder = try TemporaryDirectory()
        let target = folder.file("must-not-exist")
        let worker = try WorkerProcess(in: folder, environment: ["PHOTOD_THUMBNAILER_SELFTEST": target])
        let hello = try worker.receive()
        #expect(hello.message.contains("selftest execve=EPERM socket=EPERM open=EPERM"), "\(hello.message)")
        #expect(!FileManager.default.fileExists(atPath: target))
        // The refusals did not take the worker down: it still serves.
        let image = folder.file("a.png")
        try Pillow.gradient(image, width: 64, height: 64, format: "PNG")
        let response = try worker.thumbnail(ThumbnailRequest(id: 1, width: 32, height: 32), file: image)
        #expect((response.status, response.width) == (.ok, 32), "\(response.message)")
    }

    @Test func aLargeJPEGStaysUnder150MiB() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("large.jpg")
        try Pillow.gradient(path, width: 6000, height: 4000, format: "JPEG")
        let worker = try WorkerProcess(in: folder)
        _ = try worker.receive()
        for fit in [ThumbnailFit.inside, .fill] {
            let request = ThumbnailRequest(id: 1, fit: fit, wantsCacheCopy: true, width: 256, height: 256)
            let response = try worker.thumbnail(request, file: path)
            #expect(response.status == .ok, "\(response.message)")
            #expect((response.sourceWidth, response.sourceHeight) == (6000, 4000))
            #expect(response.width == 256 && response.height == (fit == .fill ? 256 : 171))
            #expect(response.peakRSSKiB < 150 * 1024, "peak \(response.peakRSSKiB) KiB")
        }
    }

    @Test func anAddressSpaceLimitTurnsADecodeBombIntoAFailure() throws {
        let folder = try TemporaryDirectory()
        // A PNG decodes whole; 8000×8000 RGB is 192 MB of pixels, more than a 160 MiB address space allows.
        let path = folder.file("bomb.png")
        try Pillow.run("""
            import sys
            from PIL import Image
            Image.new('RGB', (8000, 8000), (1, 2, 3)).save(sys.argv[1], 'PNG')
            """, [path])
        let request = ThumbnailRequest(id: 1, fit: .fill, width: 2048, height: 2048)
        let roomy = try WorkerProcess(in: folder)
        _ = try roomy.receive()
        let unlimited = try roomy.thumbnail(request, file: path)
        #expect(unlimited.status == .ok, "with the default limit: \(unlimited.message)")

        let tight = try WorkerProcess(in: folder, environment: ["PHOTOD_THUMBNAILER_MEMORY_MB": "160"])
        _ = try tight.receive()
        let refused = try tight.thumbnail(request, file: path)
        #expect(refused.status == .undecodable)
        #expect(refused.message.contains("out of memory"), "\(refused.message)")
        // The answer comes first; then the worker, half-broken by the failed allocations, leaves.
        #expect(tight.closeAndWait() == 75)
    }
}
