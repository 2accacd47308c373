/// Random asset identifiers: 80 bits in lowercase Crockford base32, 16 characters.
///
/// Random rather than sequential so an id never encodes order or count, and is never
/// handed out twice in practice (the store also rejects a duplicate and draws again).
enum AssetID {
    private static let alphabet = Array("0123456789abcdefghjkmnpqrstvwxyz".utf8)

    static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt16
        var bits = (high, UInt64(low))
        var characters = [UInt8](repeating: 0, count: 16)
        for index in 0..<16 {
            // 16 × 5 = 80 bits: take 5 bits at a time from the low end of the 80-bit number.
            let value = Int(bits.1 & 0x1F)
            characters[15 - index] = alphabet[value]
            bits.1 = (bits.1 >> 5) | ((bits.0 & 0x1F) << 11)
            bits.0 >>= 5
        }
        return String(decoding: characters, as: UTF8.self)
    }
}
