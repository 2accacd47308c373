import CZlib

/// The CRC-32 PNG chunks carry (ISO 3309), from zlib, which photod links for PNG text chunks anyway.
enum CRC32 {
    /// The CRC-32 of `bytes`.
    static func checksum<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> UInt32 {
        // Arrays and their slices take the buffer path: a 1024×1024 thumbnail is megabytes of IDAT.
        if let crc = bytes.withContiguousStorageIfAvailable(checksum) { return crc }
        return Array(bytes).withUnsafeBufferPointer(checksum)
    }

    private static func checksum(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        // zlib takes a 32-bit length: a longer buffer goes in steps, each continuing the last.
        var crc = crc32(0, nil, 0)
        var offset = 0
        while offset < bytes.count, let base = bytes.baseAddress {
            let step = min(bytes.count - offset, Int(UInt32.max))
            crc = crc32(crc, base + offset, UInt32(step))
            offset += step
        }
        return UInt32(truncatingIfNeeded: crc)
    }
}
