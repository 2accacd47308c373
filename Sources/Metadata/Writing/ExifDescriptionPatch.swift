/// Sets or removes IFD0 ImageDescription by editing the TIFF block in place, never re-serializing it.
///
/// Why not libexif's exif_data_save_data: measured on the shared corpus (155 JPEGs with an Exif APP1,
/// ExifTool 12.57 `-a -G1 -s -n` before and after a libexif load, set, save and splice), only 37
/// came back with every other tag unchanged; 118 differed, 41 of them beyond relocated offsets
/// (maker notes whose absolute offsets broke, e.g. Sony face data, and tags libexif drops or
/// rewrites). Editing in place moves nothing: the new text goes into the old value's bytes when it
/// fits, else at the end of the block, and only the IFD0 entry (or, to add one, IFD0 itself,
/// copied to the end and repointed from the header) changes, so every other offset stays valid.
enum ExifDescriptionPatch {
    /// ImageDescription.
    static let tag: UInt16 = 0x010E
    private static let asciiType: UInt16 = 2
    /// IFD0 of a real file has a few dozen entries.
    private static let maxEntries = 1024

    /// The TIFF block with the description set (nil: removed); nil when nothing changes.
    static func apply(_ block: [UInt8], _ text: [UInt8]?) throws(DescriptionEditError) -> [UInt8]? {
        guard let header = TIFFHeader.parse(block[...].prefix(TIFFHeader.length)), !header.isBig else {
            throw .malformedExif(reason: "no classic TIFF header")
        }
        var tiff = TIFFBytes(block, bigEndian: header.bigEndian)
        let ifd = header.firstIFD
        guard let count = tiff.uint16(at: ifd).map(Int.init), count <= maxEntries,
            ifd + 2 + count * 12 + 4 <= block.count
        else { throw .malformedExif(reason: "IFD0 runs past the Exif segment") }
        let entries = (0..<count).map { ifd + 2 + $0 * 12 }
        let existing = entries.first { tiff.uint16(at: $0) == tag }

        guard let text else {
            guard let existing else { return nil }
            try tiff.eraseValue(ofEntryAt: existing)
            // Later entries move up one place; the next-IFD offset follows them, and the freed tail is zeroed.
            let end = ifd + 2 + count * 12 + 4
            tiff.bytes.replaceSubrange(existing..<end, with: tiff.bytes[(existing + 12)..<end] + [UInt8](repeating: 0, count: 12))
            tiff.setUInt16(UInt16(count - 1), at: ifd)
            return tiff.bytes
        }

        let value = text + [0]
        if let existing {
            let old = try tiff.valueRange(ofEntryAt: existing)
            try tiff.eraseValue(ofEntryAt: existing)
            try tiff.store(value, entry: existing, reusing: old)
            try refuseGrowth(block, tiff.bytes, header, ifd)
            return tiff.bytes
        }
        // No entry: IFD0 cannot grow where it is (data may follow it), so a copy with the new entry
        // in tag order goes to the end of the block and the header points to it.
        var directory = Array(tiff.bytes[(ifd + 2)..<(ifd + 2 + count * 12)])
        let insertAt = entries.firstIndex { (tiff.uint16(at: $0) ?? 0) > tag } ?? count
        directory.insert(contentsOf: [UInt8](repeating: 0, count: 12), at: insertAt * 12)
        let next = Array(tiff.bytes[(ifd + 2 + count * 12)..<(ifd + 2 + count * 12 + 4)])
        let newIFD = tiff.alignedEnd()
        tiff.bytes += tiff.encode16(UInt16(count + 1)) + directory + next
        let entry = newIFD + 2 + insertAt * 12
        tiff.setUInt16(tag, at: entry)
        try tiff.store(value, entry: entry, reusing: nil)
        tiff.setUInt32(UInt32(newIFD), at: 4)
        try refuseGrowth(block, tiff.bytes, header, ifd)
        return tiff.bytes
    }

    /// Throws when the block grew and an existing offset points where the new bytes went.
    private static func refuseGrowth(_ old: [UInt8], _ new: [UInt8], _ header: TIFFHeader, _ ifd: Int) throws(DescriptionEditError) {
        guard new.count > old.count,
            let directory = ExifGrowthCheck.danglingOffset(in: old, bigEndian: header.bigEndian, ifd0: ifd)
        else { return }
        throw .danglingOffset(reason: "\(directory) has an offset past the end of the Exif block, where new bytes would go")
    }

    /// A big-endian TIFF block holding only IFD0 with the description, for a JPEG that had no EXIF.
    static func minimalBlock(_ text: [UInt8]) -> [UInt8] {
        var tiff = TIFFBytes(Array("MM".utf8) + [0, 42, 0, 0, 0, 8, 0, 1] + [UInt8](repeating: 0, count: 16), bigEndian: true)
        tiff.setUInt16(tag, at: 10)
        // The store cannot fail here: the entry lies inside the block just made.
        try? tiff.store(text + [0], entry: 10, reusing: nil)
        return tiff.bytes
    }
}

/// A TIFF block being edited: reads and writes in its byte order, bounds-checked.
struct TIFFBytes {
    var bytes: [UInt8]
    let bigEndian: Bool

    init(_ bytes: [UInt8], bigEndian: Bool) {
        self.bytes = bytes
        self.bigEndian = bigEndian
    }

    func uint16(at offset: Int) -> UInt16? { bytes[...].uint16(at: offset, bigEndian: bigEndian) }
    func uint32(at offset: Int) -> UInt32? { bytes[...].uint32(at: offset, bigEndian: bigEndian) }

    func encode16(_ value: UInt16) -> [UInt8] {
        bigEndian ? [UInt8(value >> 8), UInt8(value & 0xFF)] : [UInt8(value & 0xFF), UInt8(value >> 8)]
    }

    mutating func setUInt16(_ value: UInt16, at offset: Int) {
        bytes.replaceSubrange(offset..<(offset + 2), with: encode16(value))
    }

    mutating func setUInt32(_ value: UInt32, at offset: Int) {
        let high = encode16(UInt16(value >> 16)), low = encode16(UInt16(value & 0xFFFF))
        bytes.replaceSubrange(offset..<(offset + 4), with: bigEndian ? high + low : low + high)
    }

    /// The end of the block rounded up to a word boundary (TIFF offsets are even), padding with a zero.
    mutating func alignedEnd() -> Int {
        if bytes.count % 2 == 1 { bytes.append(0) }
        return bytes.count
    }

    /// Where an entry's value lies outside the entry; nil when it fits in the entry's 4 bytes.
    func valueRange(ofEntryAt entry: Int) throws(DescriptionEditError) -> Range<Int>? {
        guard let type = uint16(at: entry + 2), let count = uint32(at: entry + 4),
            let unit = Self.typeSize(type)
        else { throw .malformedExif(reason: "ImageDescription has an unknown type") }
        let size = UInt64(count) * UInt64(unit)
        guard size > 4 else { return nil }
        guard let offset = uint32(at: entry + 8), UInt64(offset) + size <= UInt64(bytes.count) else {
            throw .malformedExif(reason: "ImageDescription's value lies outside the Exif segment")
        }
        return Int(offset)..<(Int(offset) + Int(size))
    }

    /// Zeroes the old value (inside the entry or at its offset), so no tool finds the old text there.
    mutating func eraseValue(ofEntryAt entry: Int) throws(DescriptionEditError) {
        let range = try valueRange(ofEntryAt: entry) ?? (entry + 8)..<(entry + 12)
        bytes.replaceSubrange(range, with: [UInt8](repeating: 0, count: range.count))
    }

    /// Writes an ASCII value into an entry: inline when it fits 4 bytes, else into `reusing` (the
    /// old value's zeroed space) when it fits there, else appended at the block's end.
    mutating func store(_ value: [UInt8], entry: Int, reusing old: Range<Int>?) throws(DescriptionEditError) {
        guard let count = UInt32(exactly: value.count) else { throw .malformedExif(reason: "value too long") }
        setUInt16(2, at: entry + 2)
        setUInt32(count, at: entry + 4)
        if value.count <= 4 {
            bytes.replaceSubrange((entry + 8)..<(entry + 12), with: value + [UInt8](repeating: 0, count: 4 - value.count))
            return
        }
        let offset: Int
        if let old, value.count <= old.count {
            offset = old.lowerBound
            bytes.replaceSubrange(offset..<(offset + value.count), with: value)
        } else {
            offset = alignedEnd()
            bytes += value
        }
        guard let position = UInt32(exactly: offset) else { throw .malformedExif(reason: "offset past 4 GiB") }
        setUInt32(position, at: entry + 8)
    }

    /// Bytes per component of TIFF types 1...13; nil for an unknown type.
    static func typeSize(_ type: UInt16) -> Int? {
        switch type {
        case 1, 2, 6, 7: 1
        case 3, 8: 2
        case 4, 9, 11, 13: 4
        case 5, 10, 12: 8
        default: nil
        }
    }
}
