/// Whether bytes are well-formed UTF-8 (Unicode's table 3-7: no overlong forms, no surrogates,
/// nothing past U+10FFFF), as JSONDecoder requires of the strings it reads.
///
/// The stdlib's `String(validating:as:)` answers the same, but through generic code that looks
/// up type metadata on every call: a tenth of reading a page of assets.
enum UTF8Check {
    /// Whether `bytes[range]` is well-formed UTF-8.
    static func isWellFormed(_ bytes: [UInt8], _ range: Range<Int>) -> Bool {
        var index = range.lowerBound
        let end = range.upperBound
        while index < end {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            // The allowed range of the second byte depends on the lead byte; the rest are 80...BF.
            let count: Int
            var second: ClosedRange<UInt8> = 0x80...0xBF
            switch lead {
            case 0xC2...0xDF: count = 2
            case 0xE0: count = 3; second = 0xA0...0xBF
            case 0xE1...0xEC, 0xEE...0xEF: count = 3
            case 0xED: count = 3; second = 0x80...0x9F
            case 0xF0: count = 4; second = 0x90...0xBF
            case 0xF1...0xF3: count = 4
            case 0xF4: count = 4; second = 0x80...0x8F
            default: return false
            }
            guard end - index >= count, second.contains(bytes[index + 1]) else { return false }
            for offset in 2..<count where !(0x80...0xBF).contains(bytes[index + offset]) {
                return false
            }
            index += count
        }
        return true
    }
}
