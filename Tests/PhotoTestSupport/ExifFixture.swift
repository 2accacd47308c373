/// Byte order of a generated TIFF/EXIF block ("II" or "MM").
public enum TIFFByteOrder: Sendable, CaseIterable {
    case littleEndian, bigEndian
}

/// The EXIF facts a test wants in a file; `tiffBlock()` turns them into a real TIFF-structured EXIF block.
public struct ExifFixture: Sendable {
    /// IFD0 ImageDescription bytes, written as ASCII with a NUL appended (so embedded NULs survive).
    public var description: [UInt8]?
    /// Exif IFD DateTimeOriginal, e.g. "2021:05:01 10:00:00".
    public var dateTimeOriginal: String?
    /// Exif IFD OffsetTimeOriginal, e.g. "+02:00".
    public var offsetTimeOriginal: String?
    /// IFD0 Orientation (SHORT).
    public var orientation: UInt16?
    /// IFD0 Make, written as given (trailing spaces included).
    public var make: String?
    /// IFD0 Model, written as given (trailing spaces included).
    public var model: String?
    /// Exif IFD PixelXDimension (LONG).
    public var pixelXDimension: UInt32?
    /// Exif IFD PixelYDimension (LONG).
    public var pixelYDimension: UInt32?
    /// "II" or "MM" for the whole block.
    public var byteOrder: TIFFByteOrder
    /// A JPEG stored as the IFD1 thumbnail (JPEGInterchangeFormat), after the other IFDs.
    public var thumbnail: [UInt8]?

    /// Creates a fixture with the description given as raw bytes; every tag left nil is omitted.
    public init(
        description: [UInt8]? = nil,
        dateTimeOriginal: String? = nil,
        offsetTimeOriginal: String? = nil,
        orientation: UInt16? = nil,
        make: String? = nil,
        model: String? = nil,
        pixelXDimension: UInt32? = nil,
        pixelYDimension: UInt32? = nil,
        byteOrder: TIFFByteOrder = .littleEndian,
        thumbnail: [UInt8]? = nil
    ) {
        self.thumbnail = thumbnail
        self.description = description
        self.dateTimeOriginal = dateTimeOriginal
        self.offsetTimeOriginal = offsetTimeOriginal
        self.orientation = orientation
        self.make = make
        self.model = model
        self.pixelXDimension = pixelXDimension
        self.pixelYDimension = pixelYDimension
        self.byteOrder = byteOrder
    }

    /// Creates a fixture with the description given as text, stored as its UTF-8 bytes.
    // Disfavoured so that `description: nil` picks the byte-array initializer instead of being ambiguous.
    @_disfavoredOverload
    public init(
        description: String?,
        dateTimeOriginal: String? = nil,
        offsetTimeOriginal: String? = nil,
        orientation: UInt16? = nil,
        make: String? = nil,
        model: String? = nil,
        pixelXDimension: UInt32? = nil,
        pixelYDimension: UInt32? = nil,
        byteOrder: TIFFByteOrder = .littleEndian,
        thumbnail: [UInt8]? = nil
    ) {
        self.init(
            description: description.map { Array($0.utf8) },
            dateTimeOriginal: dateTimeOriginal,
            offsetTimeOriginal: offsetTimeOriginal,
            orientation: orientation,
            make: make,
            model: model,
            pixelXDimension: pixelXDimension,
            pixelYDimension: pixelYDimension,
            byteOrder: byteOrder,
            thumbnail: thumbnail
        )
    }

    /// The TIFF block as it follows "Exif\0\0" in a JPEG APP1: header, IFD0, then the Exif IFD when needed.
    public func tiffBlock() -> [UInt8] {
        let writer = TIFFWriter(byteOrder: byteOrder)
        let ifd0 = ifd0Entries(writer)
        let exifIFD = exifEntries(writer)

        let ifd0Offset = 8
        var block = writer.header(firstIFDOffset: UInt32(ifd0Offset))
        // Pointer values do not change a directory's size, so measure with placeholders first.
        let exifPointer = exifIFD.isEmpty ? [] : [writer.long(0x8769, 0)]
        let ifd0Size = writer.ifd(ifd0 + exifPointer, at: ifd0Offset).count
        let exifOffset = ifd0Offset + ifd0Size
        let exifSize = exifIFD.isEmpty ? 0 : writer.ifd(exifIFD, at: exifOffset).count
        let ifd1Offset = exifOffset + exifSize
        let pointer = exifIFD.isEmpty ? [] : [writer.long(0x8769, UInt32(exifOffset))]
        block += writer.ifd(ifd0 + pointer, at: ifd0Offset, next: thumbnail == nil ? 0 : UInt64(ifd1Offset))
        if !exifIFD.isEmpty { block += writer.ifd(exifIFD, at: exifOffset) }
        if let thumbnail {
            let ifd1 = [writer.short(0x0103, 6), writer.long(0x0201, 0), writer.long(0x0202, UInt32(thumbnail.count))]
            let thumbnailOffset = ifd1Offset + writer.ifd(ifd1, at: ifd1Offset).count
            block += writer.ifd([writer.short(0x0103, 6), writer.long(0x0201, UInt32(thumbnailOffset)),
                                 writer.long(0x0202, UInt32(thumbnail.count))], at: ifd1Offset)
            block += thumbnail
        }
        return block
    }

    /// The IFD0 entries this fixture asks for (no Exif IFD pointer), for containers that lay out their own IFDs.
    func ifd0Entries(_ writer: TIFFWriter) -> [TIFFWriter.Entry] {
        var entries: [TIFFWriter.Entry] = []
        if let description { entries.append(writer.ascii(0x010E, description)) }
        if let make { entries.append(writer.ascii(0x010F, Array(make.utf8))) }
        if let model { entries.append(writer.ascii(0x0110, Array(model.utf8))) }
        if let orientation { entries.append(writer.short(0x0112, orientation)) }
        return entries
    }

    /// The Exif IFD entries this fixture asks for; empty when no Exif IFD is needed.
    func exifEntries(_ writer: TIFFWriter) -> [TIFFWriter.Entry] {
        var entries: [TIFFWriter.Entry] = []
        if let dateTimeOriginal { entries.append(writer.ascii(0x9003, Array(dateTimeOriginal.utf8))) }
        if let offsetTimeOriginal { entries.append(writer.ascii(0x9011, Array(offsetTimeOriginal.utf8))) }
        if let pixelXDimension { entries.append(writer.long(0xA002, pixelXDimension)) }
        if let pixelYDimension { entries.append(writer.long(0xA003, pixelYDimension)) }
        return entries
    }
}
