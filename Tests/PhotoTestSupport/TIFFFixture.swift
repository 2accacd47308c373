/// A whole small TIFF file (or BigTIFF, or a TIFF-based raw's header): an 8-bit grayscale strip whose IFD0 also
/// carries an ExifFixture's fields, and optionally XMP (tag 700) and IPTC (tag 33723).
public struct TIFFFixture: Sendable {
    /// Which header the file starts with; the IFD structure is TIFF in every case.
    public enum Variant: Sendable, CaseIterable {
        /// Magic 42: "II*\0" or "MM\0*".
        case tiff
        /// Magic 43, 8-byte offsets and counts.
        case bigTIFF
        /// Olympus ORF: magic "RO" ("IIRO" little-endian, "MMOR" big-endian).
        case orf
        /// Panasonic RW2: magic 0x55 ("IIU\0"); real files are only little-endian.
        case rw2
    }

    /// Where the IFDs sit relative to the pixel data.
    public enum Placement: Sendable {
        /// Header, IFD0, Exif IFD, then pixels, as most writers do.
        case ifdFirst
        /// Header, pixels, Exif IFD, IFD0 last: IFD0 can be far from the head of a large file.
        case ifdLast
    }

    /// Where an IFD pointer leads; anything but `.normal` makes a deliberately broken file.
    public enum Pointer: Sendable, Equatable {
        /// The honest value: no next IFD, or the real Exif IFD.
        case normal
        /// Back at IFD0, so a reader that follows it blindly loops.
        case ifd0
        /// Any file offset, e.g. past the end.
        case offset(UInt64)
    }

    /// IFD0 description, make, model, orientation and the Exif IFD's fields; its byte order is the file's.
    public var exif: ExifFixture
    /// An XMP packet for tag 700 (type BYTE).
    public var xmp: [UInt8]?
    /// IPTC IIM bytes for tag 33723.
    public var iptc: [UInt8]?
    /// Writes tag 33723 as LONG (zero-padded to whole longs) like Photoshop, instead of UNDEFINED.
    public var iptcAsLongs: Bool
    /// Pixel columns of the grayscale strip.
    public var width: Int
    /// Pixel rows of the grayscale strip.
    public var height: Int
    /// The header flavour.
    public var variant: Variant
    /// IFDs before or after the pixel data.
    public var placement: Placement
    /// IFD0's next-IFD field.
    public var nextIFD: Pointer
    /// IFD0's Exif IFD pointer (tag 0x8769); written whenever the Exif IFD has fields or this is not `.normal`.
    public var exifPointer: Pointer

    /// Creates a fixture; every option defaults to an ordinary little 4x2 TIFF with the IFDs first.
    public init(
        exif: ExifFixture = ExifFixture(), xmp: [UInt8]? = nil, iptc: [UInt8]? = nil, iptcAsLongs: Bool = false,
        width: Int = 4, height: Int = 2, variant: Variant = .tiff, placement: Placement = .ifdFirst,
        nextIFD: Pointer = .normal, exifPointer: Pointer = .normal
    ) {
        self.exif = exif
        self.xmp = xmp
        self.iptc = iptc
        self.iptcAsLongs = iptcAsLongs
        self.width = width
        self.height = height
        self.variant = variant
        self.placement = placement
        self.nextIFD = nextIFD
        self.exifPointer = exifPointer
    }

    /// The file's bytes.
    public func make() -> [UInt8] {
        precondition(width > 0 && height > 0, "a TIFF strip needs at least one pixel")
        let writer = TIFFWriter(byteOrder: exif.byteOrder, bigTIFF: variant == .bigTIFF)
        let headerLength = variant == .bigTIFF ? 16 : 8
        let pixels = (0..<(width * height)).map { UInt8(truncatingIfNeeded: $0 * 37) }
        let exifEntries = exif.exifEntries(writer)

        // Entry sizes do not depend on the offsets they hold, so lay out with zeros, then write for real.
        let probe = Layout(ifd0: 0, exifIFD: 0, pixels: 0)
        let ifd0Size = writer.ifd(ifd0Entries(writer, exifEntries: exifEntries, layout: probe), at: 0).count
        let exifSize = exifEntries.isEmpty ? 0 : writer.ifd(exifEntries, at: 0).count
        let layout: Layout
        switch placement {
        case .ifdFirst:
            layout = Layout(
                ifd0: headerLength, exifIFD: headerLength + ifd0Size, pixels: headerLength + ifd0Size + exifSize)
        case .ifdLast:
            // IFDs start on a word boundary, so an odd pixel count gets one pad byte.
            let exifIFD = headerLength + pixels.count + pixels.count % 2
            layout = Layout(ifd0: exifIFD + exifSize, exifIFD: exifIFD, pixels: headerLength)
        }

        let next = resolve(nextIFD, normal: 0, layout: layout)
        let ifd0Fields = ifd0Entries(writer, exifEntries: exifEntries, layout: layout)
        let ifd0 = writer.ifd(ifd0Fields, at: layout.ifd0, next: next)
        let exifIFD = exifEntries.isEmpty ? [] : writer.ifd(exifEntries, at: layout.exifIFD)
        precondition(ifd0.count == ifd0Size, "IFD0's size must not depend on the offsets it holds")

        var file = header(writer)(UInt64(layout.ifd0))
        switch placement {
        case .ifdFirst:
            file += ifd0 + exifIFD + pixels
        case .ifdLast:
            file += pixels + [UInt8](repeating: 0, count: pixels.count % 2) + exifIFD + ifd0
        }
        return file
    }

    /// File offsets of the parts that point at each other.
    private struct Layout {
        var ifd0: Int
        var exifIFD: Int
        var pixels: Int
    }

    private func header(_ writer: TIFFWriter) -> (UInt64) -> [UInt8] {
        switch variant {
        case .tiff: { writer.header(firstIFDOffset: UInt32($0)) }
        case .bigTIFF: { writer.bigHeader(firstIFDOffset: $0) }
        case .orf: { writer.header(magic: 0x4F52, firstIFDOffset: UInt32($0)) }
        case .rw2: { writer.header(magic: 0x0055, firstIFDOffset: UInt32($0)) }
        }
    }

    private func resolve(_ pointer: Pointer, normal: UInt64, layout: Layout) -> UInt64 {
        switch pointer {
        case .normal: normal
        case .ifd0: UInt64(layout.ifd0)
        case .offset(let offset): offset
        }
    }

    /// Baseline grayscale image tags, the EXIF fixture's IFD0 fields, XMP, IPTC and the Exif IFD pointer.
    private func ifd0Entries(_ writer: TIFFWriter, exifEntries: [TIFFWriter.Entry], layout: Layout)
        -> [TIFFWriter.Entry]
    {
        var entries = [
            writer.long(0x0100, UInt32(width)),  // ImageWidth
            writer.long(0x0101, UInt32(height)),  // ImageLength
            writer.short(0x0102, 8),  // BitsPerSample
            writer.short(0x0103, 1),  // Compression: none
            writer.short(0x0106, 1),  // PhotometricInterpretation: BlackIsZero
            writer.long(0x0111, UInt32(layout.pixels)),  // StripOffsets
            writer.short(0x0115, 1),  // SamplesPerPixel
            writer.long(0x0116, UInt32(height)),  // RowsPerStrip: one strip
            writer.long(0x0117, UInt32(width * height)),  // StripByteCounts
            writer.rational(0x011A, 72, 1),  // XResolution
            writer.rational(0x011B, 72, 1),  // YResolution
            writer.short(0x0128, 2),  // ResolutionUnit: inch
        ]
        entries += exif.ifd0Entries(writer)
        if let xmp {
            entries.append(writer.bytes(0x02BC, type: TIFFWriter.typeByte, xmp))
        }
        if let iptc {
            if iptcAsLongs {
                let padded = iptc + [UInt8](repeating: 0, count: (4 - iptc.count % 4) % 4)
                entries.append(
                    TIFFWriter.Entry(
                        tag: 0x83BB, type: TIFFWriter.typeLong, count: UInt32(padded.count / 4), value: padded))
            } else {
                entries.append(writer.bytes(0x83BB, type: TIFFWriter.typeUndefined, iptc))
            }
        }
        if !exifEntries.isEmpty || exifPointer != .normal {
            entries.append(writer.pointer(0x8769, resolve(exifPointer, normal: UInt64(layout.exifIFD), layout: layout)))
        }
        return entries
    }
}
