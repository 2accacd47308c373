/// Encodes TIFF headers and IFDs in either byte order; values over 4 bytes go out of line after the IFD.
///
/// With `bigTIFF` the same entries are laid out the BigTIFF way: 8-byte counts and offsets, 20-byte entries,
/// and values up to 8 bytes inline.
struct TIFFWriter {
    struct Entry {
        var tag: UInt16
        var type: UInt16
        var count: UInt32
        var value: [UInt8]
    }

    static let typeByte: UInt16 = 1
    static let typeASCII: UInt16 = 2
    static let typeShort: UInt16 = 3
    static let typeLong: UInt16 = 4
    static let typeRational: UInt16 = 5
    static let typeUndefined: UInt16 = 7
    static let typeIFD8: UInt16 = 18

    let byteOrder: TIFFByteOrder
    var bigTIFF = false

    func header(firstIFDOffset: UInt32) -> [UInt8] {
        header(magic: 42, firstIFDOffset: firstIFDOffset)
    }

    /// A classic header with another magic number, as TIFF-based raws use ("IIRO" for ORF, "IIU\0" for RW2).
    func header(magic: UInt16, firstIFDOffset: UInt32) -> [UInt8] {
        byteOrderMark + encode16(magic) + encode32(firstIFDOffset)
    }

    /// The 16-byte BigTIFF header: magic 43, offset size 8, a reserved zero, then the first IFD's offset.
    func bigHeader(firstIFDOffset: UInt64) -> [UInt8] {
        byteOrderMark + encode16(43) + encode16(8) + encode16(0) + encode64(firstIFDOffset)
    }

    private var byteOrderMark: [UInt8] {
        byteOrder == .littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]
    }

    /// ASCII with the terminating NUL the count includes.
    func ascii(_ tag: UInt16, _ text: [UInt8]) -> Entry {
        Entry(tag: tag, type: Self.typeASCII, count: UInt32(text.count + 1), value: text + [0])
    }

    func short(_ tag: UInt16, _ value: UInt16) -> Entry {
        Entry(tag: tag, type: Self.typeShort, count: 1, value: encode16(value))
    }

    func long(_ tag: UInt16, _ value: UInt32) -> Entry {
        Entry(tag: tag, type: Self.typeLong, count: 1, value: encode32(value))
    }

    func rational(_ tag: UInt16, _ numerator: UInt32, _ denominator: UInt32) -> Entry {
        Entry(tag: tag, type: Self.typeRational, count: 1, value: encode32(numerator) + encode32(denominator))
    }

    /// Opaque bytes (BYTE or UNDEFINED), stored as given in either byte order.
    func bytes(_ tag: UInt16, type: UInt16, _ value: [UInt8]) -> Entry {
        Entry(tag: tag, type: type, count: UInt32(value.count), value: value)
    }

    /// A sub-IFD pointer: LONG in classic TIFF, IFD8 in BigTIFF as libtiff writes it.
    func pointer(_ tag: UInt16, _ offset: UInt64) -> Entry {
        bigTIFF
            ? Entry(tag: tag, type: Self.typeIFD8, count: 1, value: encode64(offset))
            : Entry(tag: tag, type: Self.typeLong, count: 1, value: encode32(UInt32(truncatingIfNeeded: offset)))
    }

    /// One IFD (entries sorted by tag, no next IFD) followed by its out-of-line values, placed at `offset`.
    func ifd(_ entries: [Entry], at offset: Int) -> [UInt8] {
        ifd(entries, at: offset, next: 0)
    }

    /// One IFD whose next-IFD field holds `next`, followed by its out-of-line values, placed at `offset`.
    func ifd(_ entries: [Entry], at offset: Int, next: UInt64) -> [UInt8] {
        let sorted = entries.sorted { $0.tag < $1.tag }
        let inlineSize = bigTIFF ? 8 : 4
        let dataStart = bigTIFF ? offset + 8 + 20 * sorted.count + 8 : offset + 2 + 12 * sorted.count + 4
        var table = bigTIFF ? encode64(UInt64(sorted.count)) : encode16(UInt16(sorted.count))
        var data: [UInt8] = []
        for entry in sorted {
            table += encode16(entry.tag) + encode16(entry.type)
            table += bigTIFF ? encode64(UInt64(entry.count)) : encode32(entry.count)
            if entry.value.count <= inlineSize {
                table += entry.value + [UInt8](repeating: 0, count: inlineSize - entry.value.count)
            } else {
                let valueOffset = dataStart + data.count
                table += bigTIFF ? encode64(UInt64(valueOffset)) : encode32(UInt32(valueOffset))
                data += entry.value
                if data.count % 2 == 1 { data.append(0) }  // TIFF offsets are word aligned
            }
        }
        table += bigTIFF ? encode64(next) : encode32(UInt32(truncatingIfNeeded: next))
        return table + data
    }

    func encode16(_ value: UInt16) -> [UInt8] {
        let bytes = [UInt8(value >> 8), UInt8(value & 0xFF)]
        return byteOrder == .bigEndian ? bytes : bytes.reversed()
    }

    func encode32(_ value: UInt32) -> [UInt8] {
        let bytes = [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
        return byteOrder == .bigEndian ? bytes : bytes.reversed()
    }

    func encode64(_ value: UInt64) -> [UInt8] {
        let bytes = (0..<8).map { UInt8(value >> (56 - 8 * UInt64($0)) & 0xFF) }
        return byteOrder == .bigEndian ? bytes : bytes.reversed()
    }
}
