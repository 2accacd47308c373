/// CRC-32 and Adler-32, and zlib streams made of stored deflate blocks, so PNG fixtures need no zlib.
enum Checksums {
    /// The reflected CRC-32 (polynomial 0xEDB88320) that PNG chunks and zip use.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        return crc ^ 0xFFFF_FFFF
    }

    private static let crcTable: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 {
            value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1
        }
        return value
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return b << 16 | a
    }

    /// A valid zlib stream that stores `data` uncompressed: header, stored deflate blocks, Adler-32.
    ///
    /// Every inflater must accept stored blocks, so the fixtures stay real without carrying a compressor.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        // 0x78 0x01: deflate, 32 KiB window, no dictionary; (0x78 << 8 | 0x01) is a multiple of 31 as required.
        var stream: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let end = min(start + 0xFFFF, data.count)
            let isLast = end == data.count
            let length = end - start
            stream.append(isLast ? 1 : 0)  // BFINAL, then BTYPE 00 (stored) in the following bits
            stream += ByteEncoding.le16(length) + ByteEncoding.le16(~length & 0xFFFF)
            stream += data[start..<end]
            start = end
        } while start < data.count
        return stream + ByteEncoding.be32(Int(adler32(data)))
    }
}
