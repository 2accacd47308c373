/// A JPEG XL container file (signature box, ftyp, a real 2x2 codestream) with optional `Exif` and `xml ` boxes.
public struct JXLFixture: Sendable {
    /// The TIFF block for the `Exif` box; nil leaves the box out.
    public var exif: ExifFixture?
    /// Puts "Exif\0\0" between the 4-byte offset and the TIFF header (offset 6); libjxl writes offset 0.
    public var exifHasHeader: Bool
    /// An XMP packet for the `xml ` box; nil leaves the box out.
    public var xmp: [UInt8]?
    /// Writes the metadata boxes after `jxlc` instead of before it (both are legal).
    public var metadataLast: Bool

    /// Creates a fixture.
    public init(
        exif: ExifFixture? = nil, exifHasHeader: Bool = false, xmp: [UInt8]? = nil, metadataLast: Bool = false
    ) {
        self.exif = exif
        self.exifHasHeader = exifHasHeader
        self.xmp = xmp
        self.metadataLast = metadataLast
    }

    /// The image size the codestream declares.
    public static let width = 2
    /// The image size the codestream declares.
    public static let height = 2

    /// The 12-byte signature box every JPEG XL container starts with.
    public static let signature: [UInt8] = [0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]

    /// The file's bytes.
    public func make() -> [UInt8] {
        var metadata: [UInt8] = []
        if let exif {
            let header = exifHasHeader ? ByteEncoding.ascii("Exif") + [0, 0] : []
            metadata += ISOBox.box("Exif", ByteEncoding.be32(header.count) + header + exif.tiffBlock())
        }
        if let xmp {
            metadata += ISOBox.box("xml ", xmp)
        }
        let codestream = ISOBox.box("jxlc", Self.codestream)
        let head = Self.signature + ISOBox.fileType(major: "jxl ", compatible: ["jxl "])
        return head + (metadataLast ? codestream + metadata : metadata + codestream)
    }

    /// A 2x2 mid-grey RGB image encoded lossless by libjxl (through imagecodecs): a bare codestream, FF 0A first.
    static let codestream: [UInt8] = [
        0xFF, 0x0A, 0x08, 0x10, 0x10, 0x09, 0x08, 0x04, 0x01, 0x00, 0x30, 0x00, 0x4B, 0x18, 0x8B, 0x15,
        0xC2, 0x49, 0x41, 0x1E, 0x80, 0x00, 0x00, 0x00,
    ]
}
