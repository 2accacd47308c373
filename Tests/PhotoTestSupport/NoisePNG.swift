/// A PNG of random 8-bit RGBA pixels, stored without compression, so that any re-encoding of it
/// stays about as large as its pixels: the worst case for an image reply's size.
public enum NoisePNG {
    /// `width` x `height` pixels of noise from `seed`.
    public static func make(width: Int, height: Int, seed: UInt64 = 26) -> [UInt8] {
        var random = SplitMix64(seed: seed)
        let row = 1 + width * 4
        var raw = [UInt8](repeating: 0, count: row * height)
        for index in raw.indices where index % row != 0 {
            raw[index] = UInt8(truncatingIfNeeded: random.next())
        }
        let header = ByteEncoding.be32(width) + ByteEncoding.be32(height) + [8, 6, 0, 0, 0]
        return PNGFixture.signature + PNGFixture.chunk("IHDR", header) + PNGFixture.chunk("IDAT", storedZlib(raw))
            + PNGFixture.chunk("IEND", [])
    }

    /// `data` as a zlib stream of stored (uncompressed) deflate blocks.
    static func storedZlib(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        out.reserveCapacity(data.count + data.count / 65_535 * 5 + 16)
        var start = 0
        repeat {
            let end = min(data.count, start + 65_535)
            let length = end - start
            out.append(end == data.count ? 1 : 0)
            out += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
            out += data[start..<end]
            start = end
        } while start < data.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return out + ByteEncoding.be32(Int(b << 16 | a))
    }
}
