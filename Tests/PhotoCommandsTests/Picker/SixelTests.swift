import Foundation
import PhotoAPI
import PhotoTestSupport
import Testing

@testable import PhotoCommands

/// Thumbnails for a sixel terminal: PNGs as Pillow writes them (every colour type and filter
/// it picks) decoded to the right pixels, anything else refused, and the sixel sequence drawn
/// from them.
@Suite struct SixelTests {
    /// A PNG from Pillow of `mode` (RGB, RGBA, L, LA), `width` × `height`, with a left half of
    /// (200, 40, 10) and a right half of a gradient, so every row filter has work to do.
    static func png(mode: String, width: Int = 37, height: Int = 13) async throws -> [UInt8] {
        let script = """
            import io, sys
            from PIL import Image
            mode, w, h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
            im = Image.new("RGB", (w, h))
            for y in range(h):
                for x in range(w):
                    im.putpixel((x, y), (200, 40, 10) if x < w // 2 else (x * 6 % 256, y * 19 % 256, (x + y) % 256))
            out = io.BytesIO()
            im.convert(mode).save(out, "PNG", optimize=True)
            sys.stdout.write(out.getvalue().hex())
            """
        let hex = try await PillowFixture.run(script, [mode, "\(width)", "\(height)"])
        return stride(from: 0, to: hex.count - 1, by: 2).compactMap {
            UInt8(hex[hex.index(hex.startIndex, offsetBy: $0)..<hex.index(hex.startIndex, offsetBy: $0 + 2)], radix: 16)
        }
    }

    @Test(arguments: ["RGB", "RGBA"]) func colourPNGsDecodeToTheirPixels(mode: String) async throws {
        let image = try #require(PNGPixels.decode(try await Self.png(mode: mode)))
        #expect(image.width == 37 && image.height == 13 && image.rgb.count == 37 * 13 * 3)
        #expect(Array(image.rgb[0..<3]) == [200, 40, 10])
        let x = 30, y = 11, at = (y * 37 + x) * 3
        #expect(Array(image.rgb[at..<(at + 3)]) == [UInt8(x * 6 % 256), UInt8(y * 19 % 256), UInt8((x + y) % 256)])
    }

    @Test(arguments: ["L", "LA"]) func grayPNGsSpreadToRGB(mode: String) async throws {
        let image = try #require(PNGPixels.decode(try await Self.png(mode: mode)))
        let first = Array(image.rgb[0..<3])
        #expect(first[0] == first[1] && first[1] == first[2] && first[0] > 0)
    }

    @Test func anythingElseIsRefused() async throws {
        let good = try await Self.png(mode: "RGB")
        #expect(PNGPixels.decode(Array(good.prefix(good.count / 2))) == nil, "cut short")
        var wrongLength = good
        wrongLength[11] = 0xFF  // IHDR claims more bytes than the file has
        #expect(PNGPixels.decode(wrongLength) == nil)
        #expect(PNGPixels.decode(Array("GIF89a".utf8)) == nil)
        var huge = good
        huge[16...19] = [0, 0, 0x10, 0]  // a width of 4096, beyond the bound
        #expect(PNGPixels.decode(huge) == nil)
    }

    @Test func theSixelSequenceDrawsEachBandOfTheFittedImage() async throws {
        let image = try #require(PNGPixels.decode(try await Self.png(mode: "RGB", width: 300, height: 200)))
        let fitted = SixelImage.fitted(image, columns: 10, rows: 5)
        #expect(fitted.width == 80 && fitted.height == 53, "kept in proportion within 80 × 80 px")
        let sixel = SixelImage.encode(fitted)
        #expect(sixel.hasPrefix("\u{1B}P0;1;0q\"1;1;80;53#0;2;0;0;0"))
        #expect(sixel.hasSuffix("-\u{1B}\\"))
        #expect(sixel.filter { $0 == "-" }.count == 9, "53 rows are nine bands of six")
        // The left half is one colour, (200, 40, 10) in the cube: level 4, 1, 0.
        #expect(sixel.contains("#\(4 * 36 + 1 * 6 + 0)!40~"), "a run of 40 full columns")
        #expect(!sixel.unicodeScalars.contains { $0.value < 0x20 && $0 != "\u{1B}" })
    }

    @Test func theShelfDrawsADecodedThumbnailAsSixelAndAnUndecodableOneNotAtAll() async throws {
        let box = PicturePlacement(assetID: "a", row: 4, column: 80, columns: 32, rows: 15)
        var shelf = PictureShelf()
        #expect(shelf.draw(box, as: .sixel) == ("", true))
        let png = try await Self.png(mode: "RGB", width: 64, height: 48)
        shelf.arrived("a", RequestImageReply(format: .png, width: 64, height: 48, source: .cache, orientation: 1,
                                             data: Data(png).base64EncodedString()), skipped: false)
        let drawn = shelf.draw(box, as: .sixel)
        #expect(drawn.text.hasPrefix("\u{1B}[4;80H\u{1B}P0;1;0q\"1;1;64;48") && !drawn.request, "\(drawn.text.prefix(40))")
        #expect(shelf.draw(box, as: .sixel).text == drawn.text, "kept, and drawn again with the next screen")
        let other = PicturePlacement(assetID: "b", row: 4, column: 80, columns: 32, rows: 15)
        _ = shelf.draw(other, as: .sixel)
        shelf.arrived("b", RequestImageReply(format: .png, width: 1, height: 1, source: .cache, orientation: 1,
                                             data: "iVBORw0KGgo="), skipped: false)
        #expect(shelf.draw(other, as: .sixel) == ("", false), "a PNG that does not decode shows nothing")
    }
}
