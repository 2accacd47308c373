/// Writes the handful of entries the reader uses into a small classic TIFF block for libexif.
///
/// libexif only finds EXIF in JPEG, reads at most 64 KiB, and knows neither BigTIFF nor the raw
/// formats' magic numbers, while a TIFF keeps IFD0 wherever it likes (often at the end of a
/// 50 MB file). Repacking hands libexif exactly the entries found, with their bytes unchanged,
/// in a block it can always read.
enum TIFFRepacker {
    private static let exifPointerTag: UInt16 = 0x8769

    /// "Exif\0\0" and a TIFF block holding `ifd0` and, when not empty, an Exif IFD with `exif`.
    static func payload(bigEndian: Bool, ifd0: [TIFFEntry], exif: [TIFFEntry]) -> [UInt8] {
        var writer = Writer(bigEndian: bigEndian)
        writer.bytes = TIFFHeader.exifPrefix + (bigEndian ? [0x4D, 0x4D, 0x00, 0x2A] : [0x49, 0x49, 0x2A, 0x00])
        writer.put32(8)
        var first = ifd0.filter { $0.tag != exifPointerTag }
        if !exif.isEmpty {
            // The pointer's value is patched once the Exif IFD's place is known.
            first.append(TIFFEntry(tag: exifPointerTag, type: 4, count: 1, value: [0, 0, 0, 0]))
        }
        writer.bytes.reserveCapacity(writer.bytes.count + 2 + 12 * (first.count + exif.count) + 4 + 4
                                     + (first + exif).reduce(0) { $0 + $1.value.count + 1 })
        if let pointerField = writer.directory(first.sorted { $0.tag < $1.tag }, valueFieldOf: exifPointerTag) {
            writer.patch32(at: pointerField, UInt32(writer.bytes.count - TIFFHeader.exifPrefix.count))
            _ = writer.directory(exif.sorted { $0.tag < $1.tag }, valueFieldOf: nil)
        }
        return writer.bytes
    }

    private struct Writer {
        let bigEndian: Bool
        var bytes: [UInt8] = []

        // Byte by byte: appending a raw buffer of two or four bytes went through the generic
        // sequence path, a tenth of the reader's time on a make-photos JPEG.
        mutating func put16(_ value: UInt16) {
            if bigEndian {
                bytes.append(UInt8(truncatingIfNeeded: value >> 8))
                bytes.append(UInt8(truncatingIfNeeded: value))
            } else {
                bytes.append(UInt8(truncatingIfNeeded: value))
                bytes.append(UInt8(truncatingIfNeeded: value >> 8))
            }
        }

        mutating func put32(_ value: UInt32) {
            if bigEndian {
                put16(UInt16(truncatingIfNeeded: value >> 16))
                put16(UInt16(truncatingIfNeeded: value))
            } else {
                put16(UInt16(truncatingIfNeeded: value))
                put16(UInt16(truncatingIfNeeded: value >> 16))
            }
        }

        mutating func patch32(at index: Int, _ value: UInt32) {
            let ordered = bigEndian ? value.bigEndian : value.littleEndian
            withUnsafeBytes(of: ordered) { raw in
                for (offset, byte) in raw.enumerated() { bytes[index + offset] = byte }
            }
        }

        /// Appends one IFD (no next IFD) and its out-of-line values; returns where the value
        /// field of the entry tagged `tag` is (nil when there is none).
        mutating func directory(_ entries: [TIFFEntry], valueFieldOf tag: UInt16?) -> Int? {
            let tiffStart = TIFFHeader.exifPrefix.count
            let tableStart = bytes.count
            var dataOffset = tableStart - tiffStart + 2 + 12 * entries.count + 4
            var valueField: Int?
            var data: [UInt8] = []
            put16(UInt16(entries.count))
            for entry in entries {
                put16(entry.tag)
                put16(entry.type)
                put32(UInt32(entry.count))
                if entry.tag == tag { valueField = bytes.count }
                if entry.value.count <= 4 {
                    bytes += entry.value
                    bytes += [UInt8](repeating: 0, count: 4 - entry.value.count)
                } else {
                    put32(UInt32(dataOffset))
                    data += entry.value
                    if data.count % 2 == 1 { data.append(0) }
                    dataOffset = tableStart - tiffStart + 2 + 12 * entries.count + 4 + data.count
                }
            }
            put32(0)
            bytes += data
            return valueField
        }
    }
}
