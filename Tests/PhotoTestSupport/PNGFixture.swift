/// A small valid PNG (8-bit grayscale, a real zlib IDAT) with EXIF and XMP in the chunks real writers use.
public struct PNGFixture: Sendable {
    /// Where the `eXIf` chunk goes; PNG 1.2 readers only promise to see chunks before IDAT.
    public enum ExifPlacement: Sendable {
        case beforeImageData, afterImageData
    }

    /// ImageMagick's legacy "Raw profile type exif" text chunk.
    public enum RawProfile: Sendable {
        /// Uncompressed `tEXt`.
        case text
        /// zlib-compressed `zTXt`.
        case compressedText
    }

    /// The EXIF written by `exifChunk` and `rawProfile`; nil writes neither.
    public var exif: ExifFixture?
    /// Where the `eXIf` chunk (a bare TIFF block) goes; nil leaves it out.
    public var exifChunk: ExifPlacement?
    /// Also, or instead, the EXIF as a hex raw profile; nil leaves it out.
    public var rawProfile: RawProfile?
    /// The raw profile's tEXt/zTXt keyword; anything but "Raw profile type exif" hides it from EXIF readers.
    public var rawProfileKeyword: String
    /// Whether the raw profile's hex starts with "Exif\0\0" (ImageMagick's APP1 copy) or straight with the TIFF.
    public var rawProfileHasExifHeader: Bool
    /// An XMP packet in an uncompressed `iTXt` chunk with keyword "XML:com.adobe.xmp".
    public var xmp: [UInt8]?
    /// Pixel columns.
    public var width: Int
    /// Pixel rows.
    public var height: Int

    /// Creates a fixture; by default the EXIF goes in an `eXIf` chunk before IDAT.
    public init(
        exif: ExifFixture? = nil, exifChunk: ExifPlacement? = .beforeImageData, rawProfile: RawProfile? = nil,
        rawProfileHasExifHeader: Bool = true, rawProfileKeyword: String = "Raw profile type exif", xmp: [UInt8]? = nil,
        width: Int = 3, height: Int = 2
    ) {
        self.exif = exif
        self.exifChunk = exifChunk
        self.rawProfile = rawProfile
        self.rawProfileHasExifHeader = rawProfileHasExifHeader
        self.rawProfileKeyword = rawProfileKeyword
        self.xmp = xmp
        self.width = width
        self.height = height
    }

    /// The eight signature bytes every PNG starts with.
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Offset just past IHDR, where a test can splice in extra chunks.
    public static let endOfHeader = 8 + 12 + 13

    /// The file's bytes: signature, IHDR, the metadata chunks, IDAT, (a late eXIf), IEND.
    public func make() -> [UInt8] {
        precondition(width > 0 && height > 0, "a PNG needs at least one pixel")
        // Depth 8, colour type 0 (grayscale), deflate, adaptive filtering, no interlace.
        let header = ByteEncoding.be32(width) + ByteEncoding.be32(height) + [8, 0, 0, 0, 0]
        var bytes = Self.signature + Self.chunk("IHDR", header)
        if let exif, let rawProfile {
            let tiff = exif.tiffBlock()
            let header = rawProfileHasExifHeader ? ByteEncoding.ascii("Exif") + [0, 0] : []
            let profile = Self.rawProfileText(header + tiff)
            let keyword = Array(rawProfileKeyword.utf8) + [0]
            switch rawProfile {
            case .text: bytes += Self.chunk("tEXt", keyword + profile)
            case .compressedText: bytes += Self.chunk("zTXt", keyword + [0] + Checksums.zlibStored(profile))
            }
        }
        if let xmp {
            // Keyword, NUL, compression flag 0, method 0, empty language tag, empty translated keyword, text.
            bytes += Self.chunk("iTXt", ByteEncoding.ascii("XML:com.adobe.xmp") + [0, 0, 0, 0, 0] + xmp)
        }
        if let exif, exifChunk == .beforeImageData {
            bytes += Self.chunk("eXIf", exif.tiffBlock())
        }
        // Each scanline: filter type 0 (None), then one byte per pixel.
        let scanlines: [UInt8] = (0..<height).flatMap { row -> [UInt8] in
            [0] + (0..<width).map { UInt8(truncatingIfNeeded: row * 50 + $0 * 20) }
        }
        bytes += Self.chunk("IDAT", Checksums.zlibStored(scanlines))
        if let exif, exifChunk == .afterImageData {
            bytes += Self.chunk("eXIf", exif.tiffBlock())
        }
        return bytes + Self.chunk("IEND", [])
    }

    /// One chunk: big-endian length, type, data, and the CRC-32 of type and data.
    public static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        precondition(type.utf8.count == 4, "chunk types are four letters")
        let typeAndData = ByteEncoding.ascii(type) + data
        return ByteEncoding.be32(data.count) + typeAndData + ByteEncoding.be32(Int(Checksums.crc32(typeAndData)))
    }

    /// ImageMagick's layout: "\nexif\n", the byte count right-aligned in 8 columns, then 72 hex digits a line.
    static func rawProfileText(_ payload: [UInt8]) -> [UInt8] {
        let count = String(payload.count)
        var text = ByteEncoding.ascii("\nexif\n" + String(repeating: " ", count: max(0, 8 - count.count)) + count)
        let hex = ByteEncoding.hex(payload)
        var start = 0
        while start < hex.count {
            text += [0x0A] + hex[start..<min(start + 72, hex.count)]
            start += 72
        }
        return text + [0x0A]
    }
}
