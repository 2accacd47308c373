/// The header of a TIFF-structured block: byte order, classic or BigTIFF, and where IFD0 is.
///
/// Besides "II*\0" and "MM\0*" it accepts the variants raw formats use for the same structure:
/// BigTIFF (43), Olympus ORF ("IIRO", "IIRS", "MMOR") and Panasonic RW2 ("IIU\0").
struct TIFFHeader: Equatable {
    var bigEndian: Bool
    /// BigTIFF: 8-byte counts and offsets, 20-byte entries.
    var isBig: Bool
    /// Offset of IFD0 from the block's start.
    var firstIFD: Int

    /// "Exif\0\0": what precedes the TIFF block in a JPEG APP1, and in some writers' WebP and PNG copies of it.
    static let exifPrefix: [UInt8] = Array("Exif".utf8) + [0, 0]

    /// How many bytes `parse` needs at most.
    static let length = 16

    private static let classicMagics: Set<UInt16> = [42, 0x4F52, 0x5352, 0x0055]

    /// The header at the start of `head`, nil when it is not one or IFD0 would sit inside the header.
    static func parse(_ head: ArraySlice<UInt8>) -> TIFFHeader? {
        let bigEndian: Bool
        if head.matches([0x49, 0x49]) {
            bigEndian = false
        } else if head.matches([0x4D, 0x4D]) {
            bigEndian = true
        } else {
            return nil
        }
        guard let magic = head.uint16(at: 2, bigEndian: bigEndian) else { return nil }
        if classicMagics.contains(magic) {
            guard let offset = head.uint32(at: 4, bigEndian: bigEndian), offset >= 8 else { return nil }
            return TIFFHeader(bigEndian: bigEndian, isBig: false, firstIFD: Int(offset))
        }
        // BigTIFF: offset byte size 8, a zero word, then an 8-byte offset.
        guard magic == 43, head.uint16(at: 4, bigEndian: bigEndian) == 8, head.uint16(at: 6, bigEndian: bigEndian) == 0,
            let offset = head.uint64(at: 8, bigEndian: bigEndian), offset >= 16, offset <= UInt64(Int.max)
        else { return nil }
        return TIFFHeader(bigEndian: bigEndian, isBig: true, firstIFD: Int(offset))
    }

    /// Bytes of one directory entry.
    var entrySize: Int { isBig ? 20 : 12 }
    /// Bytes of the entry count that starts a directory.
    var countSize: Int { isBig ? 8 : 2 }
    /// Values up to this size sit inside the entry instead of at an offset.
    var inlineSize: Int { isBig ? 8 : 4 }
}
