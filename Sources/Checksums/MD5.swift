/// MD5 (RFC 1321), only because formats demand it: the thumbnail standard names cache files by the
/// MD5 of the URI, and Photoshop's IPTCDigest (resource 0x0425) is the MD5 of the IPTC block.
/// It is not used for anything that needs a secure hash.
public enum MD5 {
    /// The 16-byte MD5 digest of `bytes`.
    public static func digest(_ bytes: [UInt8]) -> [UInt8] {
        var state: (UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476)
        // Padding: a 1 bit, zeros up to 56 mod 64, then the bit length as a little-endian UInt64.
        var message = bytes
        message.append(0x80)
        while message.count % 64 != 56 { message.append(0) }
        let bitLength = UInt64(truncatingIfNeeded: bytes.count) &* 8
        for shift in stride(from: 0, to: 64, by: 8) {
            message.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        var words = [UInt32](repeating: 0, count: 16)
        for blockStart in stride(from: 0, to: message.count, by: 64) {
            for index in 0..<16 {
                let base = blockStart + index * 4
                words[index] = UInt32(message[base]) | UInt32(message[base + 1]) << 8
                    | UInt32(message[base + 2]) << 16 | UInt32(message[base + 3]) << 24
            }
            compress(&state, words)
        }
        return [state.0, state.1, state.2, state.3].flatMap { word in
            (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32($0 * 8)) }
        }
    }

    /// The digest of `bytes` as 32 lowercase hex digits, the form cache file names use.
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        let text = digest(bytes).flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] }
        return String(decoding: text, as: UTF8.self)
    }

    /// Per-round left-rotation amounts, RFC 1321 section 3.4.
    private static let shifts: [UInt32] = [
        7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
        5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
        4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
        6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
    ]

    /// floor(abs(sin(i + 1)) * 2^32), written out so no floating-point libm result can differ.
    private static let constants: [UInt32] = [
        0xD76A_A478, 0xE8C7_B756, 0x2420_70DB, 0xC1BD_CEEE, 0xF57C_0FAF, 0x4787_C62A, 0xA830_4613, 0xFD46_9501,
        0x6980_98D8, 0x8B44_F7AF, 0xFFFF_5BB1, 0x895C_D7BE, 0x6B90_1122, 0xFD98_7193, 0xA679_438E, 0x49B4_0821,
        0xF61E_2562, 0xC040_B340, 0x265E_5A51, 0xE9B6_C7AA, 0xD62F_105D, 0x0244_1453, 0xD8A1_E681, 0xE7D3_FBC8,
        0x21E1_CDE6, 0xC337_07D6, 0xF4D5_0D87, 0x455A_14ED, 0xA9E3_E905, 0xFCEF_A3F8, 0x676F_02D9, 0x8D2A_4C8A,
        0xFFFA_3942, 0x8771_F681, 0x6D9D_6122, 0xFDE5_380C, 0xA4BE_EA44, 0x4BDE_CFA9, 0xF6BB_4B60, 0xBEBF_BC70,
        0x289B_7EC6, 0xEAA1_27FA, 0xD4EF_3085, 0x0488_1D05, 0xD9D4_D039, 0xE6DB_99E5, 0x1FA2_7CF8, 0xC4AC_5665,
        0xF429_2244, 0x432A_FF97, 0xAB94_23A7, 0xFC93_A039, 0x655B_59C3, 0x8F0C_CC92, 0xFFEF_F47D, 0x8584_5DD1,
        0x6FA8_7E4F, 0xFE2C_E6E0, 0xA301_4314, 0x4E08_11A1, 0xF753_7E82, 0xBD3A_F235, 0x2AD7_D2BB, 0xEB86_D391,
    ]

    /// One 64-byte block folded into the running state.
    private static func compress(_ state: inout (UInt32, UInt32, UInt32, UInt32), _ words: [UInt32]) {
        var (a, b, c, d) = state
        for round in 0..<64 {
            let mixed: UInt32
            let wordIndex: Int
            switch round {
            case 0..<16:
                mixed = (b & c) | (~b & d)
                wordIndex = round
            case 16..<32:
                mixed = (d & b) | (~d & c)
                wordIndex = (5 &* round &+ 1) % 16
            case 32..<48:
                mixed = b ^ c ^ d
                wordIndex = (3 &* round &+ 5) % 16
            default:
                mixed = c ^ (b | ~d)
                wordIndex = (7 &* round) % 16
            }
            let sum = a &+ mixed &+ constants[round] &+ words[wordIndex]
            let shift = shifts[round]
            a = d
            d = c
            c = b
            b = b &+ (sum << shift | sum >> (32 - shift))
        }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d)
    }
}
