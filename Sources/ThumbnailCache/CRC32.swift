/// The CRC-32 PNG chunks carry (ISO 3309, reflected polynomial 0xEDB88320), computed here so
/// the module needs no zlib.
enum CRC32 {
    /// The CRC-32 of `bytes`.
    static func checksum<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> UInt32 {
        // Arrays and their slices take the buffer path: a 1024×1024 thumbnail is megabytes of IDAT.
        if let crc = bytes.withContiguousStorageIfAvailable(checksum) { return crc }
        return Array(bytes).withUnsafeBufferPointer(checksum)
    }

    private static func checksum(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        table.withUnsafeBufferPointer { table in
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes {
                crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
            }
            return crc ^ 0xFFFF_FFFF
        }
    }

    /// One entry per byte value, so the loop above does a lookup per byte instead of eight shifts.
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 {
            value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1
        }
        return value
    }
}
