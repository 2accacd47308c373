/// An extended-format WebP (RIFF, VP8X, a real 2x2 lossless VP8L image) with optional EXIF and XMP chunks.
public struct WebPFixture: Sendable {
    /// The EXIF for the `EXIF` chunk; nil leaves the chunk out.
    public var exif: ExifFixture?
    /// Starts the `EXIF` chunk with "Exif\0\0" as some writers (older ExifTool, Photoshop) do; the spec says not to.
    public var exifHasHeader: Bool
    /// An XMP packet for the `XMP ` chunk; nil leaves it out.
    public var xmp: [UInt8]?

    /// Creates a fixture.
    public init(exif: ExifFixture? = nil, exifHasHeader: Bool = false, xmp: [UInt8]? = nil) {
        self.exif = exif
        self.exifHasHeader = exifHasHeader
        self.xmp = xmp
    }

    /// The canvas size VP8X declares, which is the bitstream's size.
    public static let width = 2
    /// The canvas size VP8X declares, which is the bitstream's size.
    public static let height = 2

    /// The file's bytes, chunks in the order the container spec requires: VP8X, image, EXIF, XMP.
    public func make() -> [UInt8] {
        var flags: UInt8 = 0
        if exif != nil { flags |= 0x08 }
        if xmp != nil { flags |= 0x04 }
        // Flags, 3 reserved bytes, then canvas width - 1 and height - 1 as 24-bit little-endian numbers.
        let extended = [flags, 0, 0, 0] + ByteEncoding.le24(Self.width - 1) + ByteEncoding.le24(Self.height - 1)
        var chunks = Self.chunk("VP8X", extended) + Self.chunk("VP8L", Self.losslessBitstream)
        if let exif {
            chunks += Self.chunk("EXIF", (exifHasHeader ? ByteEncoding.ascii("Exif") + [0, 0] : []) + exif.tiffBlock())
        }
        if let xmp {
            chunks += Self.chunk("XMP ", xmp)
        }
        // The RIFF size counts everything after itself: "WEBP" and the chunks.
        return ByteEncoding.ascii("RIFF") + ByteEncoding.le32(4 + chunks.count) + ByteEncoding.ascii("WEBP") + chunks
    }

    /// One RIFF chunk: FourCC, little-endian payload size (without padding), payload, a pad byte when odd.
    public static func chunk(_ fourCC: String, _ payload: [UInt8]) -> [UInt8] {
        precondition(fourCC.utf8.count == 4, "RIFF chunk ids are four characters")
        let padding: [UInt8] = payload.count % 2 == 1 ? [0] : []
        return ByteEncoding.ascii(fourCC) + ByteEncoding.le32(payload.count) + payload + padding
    }

    /// A 2x2 opaque RGB image encoded lossless by libwebp 1.6 (through Pillow), without its RIFF and chunk headers.
    static let losslessBitstream: [UInt8] = [
        0x2F, 0x01, 0x40, 0x00, 0x00, 0x07, 0x50, 0xB2, 0x22, 0x57, 0xA6, 0xFF, 0x81, 0x88, 0xE8, 0x7F, 0x00,
    ]
}
