/// Encodes TIFF headers and IFDs in either byte order; values over 4 bytes go out of line after the IFD.
struct TIFFWriter {
    struct Entry {
        var tag: UInt16
        var type: UInt16
        var count: UInt32
        var value: [UInt8]
    }

    static let typeASCII: UInt16 = 2
    static let typeShort: UInt16 = 3
    static let typeLong: UInt16 = 4

    let byteOrder: TIFFByteOrder

    func header(firstIFDOffset: UInt32) -> [UInt8] {
        let mark: [UInt8] = byteOrder == .littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]
        return mark + encode16(42) + encode32(firstIFDOffset)
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

    /// One IFD (entries sorted by tag, no next IFD) followed by its out-of-line values, placed at `offset`.
    func ifd(_ entries: [Entry], at offset: Int) -> [UInt8] {
        let sorted = entries.sorted { $0.tag < $1.tag }
        let dataStart = offset + 2 + 12 * sorted.count + 4
        var table = encode16(UInt16(sorted.count))
        var data: [UInt8] = []
        for entry in sorted {
            table += encode16(entry.tag) + encode16(entry.type) + encode32(entry.count)
            if entry.value.count <= 4 {
                table += entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
            } else {
                table += encode32(UInt32(dataStart + data.count))
                data += entry.value
                if data.count % 2 == 1 { data.append(0) }  // TIFF offsets are word aligned
            }
        }
        table += encode32(0)
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
}
