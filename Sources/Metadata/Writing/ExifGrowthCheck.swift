/// Whether bytes appended to a TIFF block would land where an existing offset already points.
///
/// Growing the block is safe only when nothing points past its old end. A broken offset there
/// (me_jpg_Nikon_D1X: the Nikon maker note's NikonScanIFD points 3,000 bytes past the Exif segment)
/// reads nothing before the edit, but reads the appended text as a directory after it, so ExifTool
/// reports a new bad directory. Those pointers cannot be moved (their target does not exist), so the
/// writer refuses instead. Checked: IFD0, the Exif IFD and a Nikon maker note with its own TIFF header.
enum ExifGrowthCheck {
    private static let exifIFDTag: UInt16 = 0x8769
    private static let makerNoteTag: UInt16 = 0x927C
    /// Nikon maker-note tags whose 4-byte value is a directory offset (PreviewIFD, NikonScanIFD).
    private static let nikonIFDTags: Set<UInt16> = [0x0011, 0x0E10]
    private static let nikonPrefix: [UInt8] = Array("Nikon".utf8) + [0]
    private static let maxEntries = 1024

    /// The name of the first directory with an offset at or past `block`'s end, or nil when none has one.
    static func danglingOffset(in block: [UInt8], bigEndian: Bool, ifd0: Int) -> String? {
        let all = block[...]
        guard let ifd0Entries = entries(all, base: 0, at: ifd0, bigEndian: bigEndian) else { return nil }
        if pointsPast(ifd0Entries, all, base: 0, bigEndian: bigEndian, pointerTags: []) { return "IFD0" }
        guard let exifEntry = ifd0Entries.first(where: { all.uint16(at: $0, bigEndian: bigEndian) == exifIFDTag }),
            let exifIFD = all.uint32(at: exifEntry + 8, bigEndian: bigEndian).map(Int.init),
            let exifEntries = entries(all, base: 0, at: exifIFD, bigEndian: bigEndian)
        else { return nil }
        if pointsPast(exifEntries, all, base: 0, bigEndian: bigEndian, pointerTags: []) { return "ExifIFD" }
        // Nikon type 3: "Nikon\0", version, then a TIFF header its offsets count from.
        guard let noteEntry = exifEntries.first(where: { all.uint16(at: $0, bigEndian: bigEndian) == makerNoteTag }),
            let note = all.uint32(at: noteEntry + 8, bigEndian: bigEndian).map(Int.init),
            note < block.count, block[note...].starts(with: nikonPrefix),
            let header = TIFFHeader.parse(block[min(note + 10, block.count)...].prefix(TIFFHeader.length)), !header.isBig,
            let noteEntries = entries(all, base: note + 10, at: header.firstIFD, bigEndian: header.bigEndian)
        else { return nil }
        let nikon = pointsPast(noteEntries, all, base: note + 10, bigEndian: header.bigEndian, pointerTags: nikonIFDTags)
        return nikon ? "Nikon maker note" : nil
    }

    /// Absolute positions of a directory's entries; nil when it does not lie inside the block.
    private static func entries(_ all: ArraySlice<UInt8>, base: Int, at offset: Int, bigEndian: Bool) -> [Int]? {
        let start = base + offset
        guard let count = all.uint16(at: start, bigEndian: bigEndian).map(Int.init), count <= maxEntries,
            start + 2 + count * 12 <= all.count
        else { return nil }
        return (0..<count).map { start + 2 + $0 * 12 }
    }

    /// Whether an entry's out-of-line value, or a directory pointer held inline, starts at or past the end.
    private static func pointsPast(_ entries: [Int], _ all: ArraySlice<UInt8>, base: Int, bigEndian: Bool,
                                   pointerTags: Set<UInt16>) -> Bool {
        entries.contains { entry in
            guard let tag = all.uint16(at: entry, bigEndian: bigEndian), let type = all.uint16(at: entry + 2, bigEndian: bigEndian),
                let count = all.uint32(at: entry + 4, bigEndian: bigEndian),
                let value = all.uint32(at: entry + 8, bigEndian: bigEndian)
            else { return false }
            let outOfLine = TIFFBytes.typeSize(type).map { UInt64(count) * UInt64($0) > 4 } ?? false
            guard outOfLine || pointerTags.contains(tag) else { return false }
            return UInt64(base) + UInt64(value) >= UInt64(all.count)
        }
    }
}
