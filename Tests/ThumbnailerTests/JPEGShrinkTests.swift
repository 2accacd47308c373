import PhotoTestSupport
import Testing
import ThumbnailProtocol
@testable import Thumbnailer

/// JPEGs are decoded by libjpeg at 1/2, 1/4 or 1/8 whenever the thumbnail is still at most that
/// size, and the result looks like a full decode resized.
@Suite struct JPEGShrinkTests {
    @Test func theFactorLeavesTheImageAtLeastAsLargeAsTheThumbnail() {
        // 640x480 into 256 px: 2.5 times, so 1/2 (vips_thumbnail alone decodes it whole).
        #expect(JPEGShrink.factor(sourceWidth: 640, sourceHeight: 480, boxWidth: 256, boxHeight: 256, fill: false) == 2)
        // Covering the box needs 480 / 256 = 1.875: no shrink.
        #expect(JPEGShrink.factor(sourceWidth: 640, sourceHeight: 480, boxWidth: 256, boxHeight: 256, fill: true) == 1)
        #expect(JPEGShrink.factor(sourceWidth: 1024, sourceHeight: 768, boxWidth: 256, boxHeight: 256, fill: false) == 4)
        // 23 times smaller: vips_thumbnail decodes at 1/8 by itself, and its own path is kept.
        #expect(JPEGShrink.factor(sourceWidth: 6000, sourceHeight: 4000, boxWidth: 256, boxHeight: 256, fill: false) == 1)
        #expect(JPEGShrink.factor(sourceWidth: 4096, sourceHeight: 3072, boxWidth: 512, boxHeight: 512, fill: false) == 8)
        #expect(JPEGShrink.factor(sourceWidth: 3000, sourceHeight: 4000, boxWidth: 1024, boxHeight: 1024, fill: false) == 2)
        #expect(JPEGShrink.factor(sourceWidth: 100, sourceHeight: 50, boxWidth: 256, boxHeight: 256, fill: false) == 1)
        #expect(JPEGShrink.factor(sourceWidth: 511, sourceHeight: 300, boxWidth: 256, boxHeight: 256, fill: false) == 1)
        #expect(JPEGShrink.factor(sourceWidth: 512, sourceHeight: 300, boxWidth: 256, boxHeight: 256, fill: false) == 2)
        #expect(JPEGShrink.factor(sourceWidth: 0, sourceHeight: 300, boxWidth: 256, boxHeight: 256, fill: false) == 1)
        // Only factors that divide both sides (1538 rows are 2 times 769), and more than vips_thumbnail's own.
        #expect(JPEGShrink.factor(sourceWidth: 2048, sourceHeight: 1538, boxWidth: 256, boxHeight: 256, fill: false) == 1)
        #expect(JPEGShrink.factor(sourceWidth: 1136, sourceHeight: 775, boxWidth: 256, boxHeight: 256, fill: false) == 1)
        #expect(JPEGShrink.factor(sourceWidth: 1001, sourceHeight: 750, boxWidth: 256, boxHeight: 256, fill: false) == 1)
    }

    @Test(arguments: [ThumbnailFit.inside, .fill])
    func aShrunkDecodeLooksLikeTheWholeImageResized(fit: ThumbnailFit) async throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("wide.jpg")
        try await Pillow.gradient(path, width: 1024, height: 768, format: "JPEG")
        let worker = try await WorkerProcess.ready(in: folder)
        let response = try await worker.thumbnail(ThumbnailRequest(id: 1, fit: fit, format: .png, width: 256, height: 256),
                                                  file: path)
        #expect(response.status == .ok, "\(response.message)")
        let size = fit == .inside ? (256, 192) : (256, 256)
        #expect((Int(response.width), Int(response.height)) == size)
        #expect((response.sourceWidth, response.sourceHeight) == (1024, 768))
        let probes = [(8, 8), (128, 96), (250, 20), (30, 180), (200, 150)]
        let made = try await Pillow.inspect(response.image, in: folder, probes: probes)
        // Pillow's own full decode, resized (and for fill, centre-cropped) the same way.
        let expected = try await Pillow.run("""
            import sys, json
            from PIL import Image
            im = Image.open(sys.argv[1]).convert('RGB')
            if sys.argv[2] == 'fill':
                im = im.resize((341, 256), Image.LANCZOS).crop((42, 0, 298, 256))
            else:
                im = im.resize((256, 192), Image.LANCZOS)
            print(json.dumps([list(im.getpixel(tuple(p))) for p in json.loads(sys.argv[3])]))
            """, [path, fit == .fill ? "fill" : "inside", "[" + probes.map { "[\($0.0),\($0.1)]" }.joined(separator: ",") + "]"])
        let references = Self.pixels(expected)
        #expect(references.count == probes.count, "\(expected)")
        for (index, pixel) in made.pixels.enumerated() {
            let reference = try #require(references[safe: index])
            let close = zip(pixel, reference).allSatisfy { abs($0 - $1) <= 12 }
            #expect(close, "\(fit) at \(probes[index]): \(pixel), Pillow \(reference)")
        }
    }

    /// The pixel lists of Pillow's JSON answer.
    private static func pixels(_ json: String) -> [[Int]] {
        json.split(separator: "[").compactMap { part -> [Int]? in
            let numbers = part.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            return numbers.count == 3 ? numbers : nil
        }
    }
}

private extension Array {
    /// The element at `index`, or nil past the end.
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
