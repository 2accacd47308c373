/// Fixed-width integer and text encodings shared by the container fixtures.
enum ByteEncoding {
    static func be16(_ value: Int) -> [UInt8] {
        [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func be32(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func be64(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(value >> (56 - 8 * UInt64($0)) & 0xFF) }
    }

    static func le16(_ value: Int) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)]
    }

    static func le24(_ value: Int) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF)]
    }

    static func le32(_ value: Int) -> [UInt8] {
        le16(value & 0xFFFF) + le16(value >> 16 & 0xFFFF)
    }

    /// Four-character codes and other fixed ASCII labels; the fixtures only ever pass ASCII literals.
    static func ascii(_ text: String) -> [UInt8] {
        Array(text.utf8)
    }

    /// Lower-case hex digits, the way ImageMagick writes raw profiles.
    static func hex(_ bytes: [UInt8]) -> [UInt8] {
        let digits = Array("0123456789abcdef".utf8)
        return bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] }
    }
}
