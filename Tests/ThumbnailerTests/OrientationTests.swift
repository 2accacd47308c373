import PhotoTestSupport
import Testing
import ThumbnailProtocol

/// Each EXIF orientation, on a JPEG whose stored pixels are the inverse transform of an upright
/// 64×32 reference: the worker must hand back the reference, pixel by pixel.
@Suite struct OrientationTests {
    /// Upright reference: left half red, right half blue, top-left quadrant green. No symmetry maps
    /// it onto itself, so any wrong rotation or flip moves a probe onto the wrong colour.
    static let script = """
        import sys
        from PIL import Image
        n = int(sys.argv[2])
        im = Image.new('RGB', (64, 32), (255, 0, 0))
        im.paste((0, 0, 255), (32, 0, 64, 32))
        im.paste((0, 255, 0), (0, 0, 32, 16))
        T = Image.Transpose
        # The inverse of what a viewer applies for orientation n (Pillow's exif_transpose table).
        inverse = {1: None, 2: T.FLIP_LEFT_RIGHT, 3: T.ROTATE_180, 4: T.FLIP_TOP_BOTTOM,
                   5: T.TRANSPOSE, 6: T.ROTATE_90, 7: T.TRANSVERSE, 8: T.ROTATE_270}[n]
        stored = im.transpose(inverse) if inverse is not None else im
        exif = Image.Exif()
        exif[0x0112] = n
        stored.save(sys.argv[1], 'JPEG', quality=95, exif=exif)
        """

    static let probes = [(8, 8), (24, 8), (8, 24), (40, 8), (56, 24)]
    static let expected = [[0, 255, 0], [0, 255, 0], [255, 0, 0], [0, 0, 255], [0, 0, 255]]

    @Test(arguments: 1...8)
    func theResultIsUpright(orientation: Int) async throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("o\(orientation).jpg")
        try await Pillow.run(Self.script, [path, String(orientation)])
        let worker = try WorkerProcess(in: folder)
        _ = try await worker.receive()
        let response = try await worker.thumbnail(ThumbnailRequest(id: 1, format: .png, width: 256, height: 256), file: path)
        #expect(response.status == .ok, "\(response.message)")
        #expect((response.width, response.height, response.sourceWidth, response.sourceHeight) == (64, 32, 64, 32))
        let decoded = try await Pillow.inspect(response.image, in: folder, probes: Self.probes)
        #expect((decoded.width, decoded.height) == (64, 32))
        for (index, pixel) in decoded.pixels.enumerated() {
            let close = zip(pixel, Self.expected[index]).allSatisfy { abs($0 - $1) < 48 }
            #expect(close, "orientation \(orientation): \(Self.probes[index]) is \(pixel), want \(Self.expected[index])")
        }
    }
}
