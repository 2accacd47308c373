/// Reads a TIFF-structured block (a TIFF or raw file, or the EXIF block inside another container):
/// the EXIF entries for libexif, the embedded XMP and IPTC, and IFD0's pixel size.
enum TIFFBlock {
    /// What one block holds.
    struct Contents {
        /// "Exif\0\0" plus a repacked TIFF block, for libexif; nil when the block is not TIFF.
        var exifPayload: [UInt8]?
        /// IFD0 XMP (tag 700).
        var xmpPacket: ArraySlice<UInt8>?
        /// IFD0 IPTC-NAA (tag 33723): IIM records.
        var iptc: ArraySlice<UInt8>?
        /// IFD0 Photoshop image resources (tag 34377), which may hold IPTC in resource 0x0404.
        var photoshop: ArraySlice<UInt8>?
        /// IFD0 ImageWidth and ImageLength, unless IFD0 is a reduced-resolution preview.
        var width: Int?
        var height: Int?
    }

    /// Text values libexif reads: the 64 KiB a JPEG APP1 could carry is more than any real one.
    private static let textLimit = 64 * 1024
    /// Embedded XMP and IPTC are larger, but a packet past this is not a caption's container.
    private static let packetLimit = 4 * 1024 * 1024

    private static let exifPointer: UInt16 = 0x8769

    /// IFD0 tags wanted, with the most bytes each value may have.
    private static func ifd0Limit(_ tag: UInt16) -> Int? {
        switch tag {
        case 0x00FE, 0x0100, 0x0101, 0x0112, exifPointer: 8
        case 0x010E, 0x010F, 0x0110: textLimit
        case 0x02BC, 0x83BB, 0x8649: packetLimit
        default: nil
        }
    }

    /// Exif IFD tags wanted: DateTimeOriginal, OffsetTimeOriginal, PixelXDimension, PixelYDimension.
    private static func exifLimit(_ tag: UInt16) -> Int? {
        switch tag {
        case 0x9003, 0x9011: textLimit
        case 0xA002, 0xA003: 8
        default: nil
        }
    }

    /// The tags libexif is given from IFD0 (the rest are read here).
    private static func isExifTagOfIFD0(_ tag: UInt16) -> Bool {
        switch tag {
        case 0x010E, 0x010F, 0x0110, 0x0112: true
        default: false
        }
    }

    /// Reads the block that starts at the source's first byte.
    static func read<Source: ByteSource>(_ source: inout Source) -> Contents {
        guard let header = TIFFHeader.parse(source.bytes(at: 0, count: TIFFHeader.length)) else { return Contents() }
        let ifd0 = TIFFDirectory.read(&source, header: header, at: header.firstIFD, limit: ifd0Limit)
        var exif: [TIFFEntry] = []
        if let pointer = ifd0.first(where: { $0.tag == exifPointer })?.integer(bigEndian: header.bigEndian),
            pointer < UInt64(source.size)
        {
            // Only IFD0 and the one directory it points to are read, so no chain can loop.
            exif = TIFFDirectory.read(&source, header: header, at: Int(pointer), limit: exifLimit)
        }
        return contents(bigEndian: header.bigEndian, ifd0: ifd0, exif: exif)
    }

    /// Canon CR3 keeps IFD0 (CMT1) and the Exif IFD (CMT2) as two blocks; this joins them for libexif.
    static func readSplit<IFD0: ByteSource, Exif: ByteSource>(ifd0 first: inout IFD0, exif second: inout Exif) -> Contents {
        guard let header = TIFFHeader.parse(first.bytes(at: 0, count: TIFFHeader.length)),
            let exifHeader = TIFFHeader.parse(second.bytes(at: 0, count: TIFFHeader.length))
        else { return read(&first) }  // no usable CMT2: CMT1 read as a block of its own
        let ifd0 = TIFFDirectory.read(&first, header: header, at: header.firstIFD, limit: ifd0Limit)
        var exif = TIFFDirectory.read(&second, header: exifHeader, at: exifHeader.firstIFD, limit: exifLimit)
        if exifHeader.bigEndian != header.bigEndian {
            // Never seen in a real file, but the repacked block has one byte order: drop what would be misread.
            exif = exif.filter { $0.type == 2 }
        }
        return contents(bigEndian: header.bigEndian, ifd0: ifd0, exif: exif)
    }

    /// What IFD0 and the Exif IFD hold: the repacked EXIF for libexif, the embedded packets, the size.
    private static func contents(bigEndian: Bool, ifd0: [TIFFEntry], exif: [TIFFEntry]) -> Contents {
        var contents = Contents()
        contents.exifPayload = TIFFRepacker.payload(
            bigEndian: bigEndian, ifd0: ifd0.filter { isExifTagOfIFD0($0.tag) }, exif: exif)
        contents.xmpPacket = ifd0.first { $0.tag == 0x02BC }?.value
        contents.iptc = ifd0.first { $0.tag == 0x83BB }?.value
        contents.photoshop = ifd0.first { $0.tag == 0x8649 }?.value
        let subfileType = ifd0.first { $0.tag == 0x00FE }?.integer(bigEndian: bigEndian) ?? 0
        if subfileType & 1 == 0,
            let width = ifd0.first(where: { $0.tag == 0x0100 })?.integer(bigEndian: bigEndian),
            let height = ifd0.first(where: { $0.tag == 0x0101 })?.integer(bigEndian: bigEndian),
            width > 0, height > 0, width <= UInt64(Int32.max), height <= UInt64(Int32.max)
        {
            contents.width = Int(width)
            contents.height = Int(height)
        }
        return contents
    }
}
