/// One directory entry of interest, with its value bytes fetched (still in the block's byte order).
struct TIFFEntry: Equatable {
    var tag: UInt16
    var type: UInt16
    var count: Int
    var value: ArraySlice<UInt8>

    /// Byte size of one component of a TIFF field type; nil for types the specification does not define.
    static func componentSize(_ type: UInt16) -> Int? {
        switch type {
        case 1, 2, 6, 7: 1
        case 3, 8: 2
        case 4, 9, 11, 13: 4
        case 5, 10, 12, 16, 17, 18: 8
        default: nil
        }
    }

    /// The first component as an unsigned integer (SHORT, LONG, IFD, LONG8, IFD8), nil for other types.
    func integer(bigEndian: Bool) -> UInt64? {
        switch type {
        case 3: value.uint16(at: 0, bigEndian: bigEndian).map(UInt64.init)
        case 4, 13: value.uint32(at: 0, bigEndian: bigEndian).map(UInt64.init)
        case 16, 18: value.uint64(at: 0, bigEndian: bigEndian)
        default: nil
        }
    }
}

/// Reads the entries of one IFD that a caller asks for, never more than their bounded values.
enum TIFFDirectory {
    /// More entries than any real IFD0 or Exif IFD holds; bounds the table read for a crafted count.
    static let maxEntries = 1024

    /// The wanted entries of the IFD at `offset`, each value at most `limit(tag)` bytes.
    ///
    /// An entry whose value lies (even partly) outside the block is left out, as libexif does.
    static func read<Source: ByteSource>(
        _ source: inout Source, header: TIFFHeader, at offset: Int, limit: (UInt16) -> Int?
    ) -> [TIFFEntry] {
        guard offset >= 0, offset < source.size else { return [] }
        let countBytes = source.bytes(at: offset, count: header.countSize)
        let declared: UInt64? =
            header.isBig
            ? countBytes.uint64(at: 0, bigEndian: header.bigEndian)
            : countBytes.uint16(at: 0, bigEndian: header.bigEndian).map(UInt64.init)
        guard let declared, declared > 0 else { return [] }
        let count = Int(min(declared, UInt64(maxEntries)))
        let table = source.bytes(at: offset + header.countSize, count: count * header.entrySize)
        var entries: [TIFFEntry] = []
        // A tag appears once in a real IFD; the first usable entry wins (as callers take the
        // first), so a table repeating one 4 MiB packet tag a thousand times reads it once.
        // Only wanted tags are kept, a handful: a list is searched faster than a set is hashed.
        var found: [UInt16] = []
        for index in 0..<(table.count / header.entrySize) {
            let base = index * header.entrySize
            guard let tag = table.uint16(at: base, bigEndian: header.bigEndian), !found.contains(tag),
                let maxBytes = limit(tag),
                let type = table.uint16(at: base + 2, bigEndian: header.bigEndian),
                let componentSize = TIFFEntry.componentSize(type)
            else { continue }
            let rawCount: UInt64? =
                header.isBig
                ? table.uint64(at: base + 4, bigEndian: header.bigEndian)
                : table.uint32(at: base + 4, bigEndian: header.bigEndian).map(UInt64.init)
            guard let rawCount, rawCount <= UInt64(maxBytes / componentSize) else { continue }
            let byteCount = Int(rawCount) * componentSize
            let valueField = base + (header.isBig ? 12 : 8)
            let value: ArraySlice<UInt8>
            if byteCount <= header.inlineSize {
                value = table[(table.startIndex + valueField)..<(table.startIndex + valueField + byteCount)]
            } else {
                let pointer: UInt64? =
                    header.isBig
                    ? table.uint64(at: valueField, bigEndian: header.bigEndian)
                    : table.uint32(at: valueField, bigEndian: header.bigEndian).map(UInt64.init)
                // A value inside the header or this directory's own table is garbage (ExifTool
                // calls it a "suspicious offset"): such bytes were never written as the value.
                let tableEnd = UInt64(offset + header.countSize + count * header.entrySize)
                guard let pointer, pointer < UInt64(source.size), UInt64(byteCount) <= UInt64(source.size) - pointer,
                    pointer >= UInt64(header.isBig ? 16 : 8),
                    pointer >= tableEnd || pointer + UInt64(byteCount) <= UInt64(offset),
                    let bytes = source.exactly(byteCount, at: Int(pointer))
                else { continue }
                value = bytes
            }
            entries.append(TIFFEntry(tag: tag, type: type, count: Int(rawCount), value: value))
            found.append(tag)
        }
        return entries
    }
}
