extension JSONReader {
    /// A string with its escapes decoded, refused as JSONDecoder refuses it: an unescaped
    /// control character, an unknown or short escape, a surrogate without its pair, bytes that
    /// are not UTF-8.
    public mutating func readString() throws(JSONReadError) -> String {
        guard peek() == UInt8(ascii: "\"") else { throw error("expected a string") }
        let start = index
        index += 1
        var runStart = index
        // Filled only once an escape is met: most strings are copied straight from the bytes.
        var decoded: [UInt8] = []
        var escaped = false
        // Only a string with a byte past ASCII needs its UTF-8 checked.
        var ascii = true
        while index < end {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                let text: String?
                if escaped {
                    decoded.append(contentsOf: bytes[runStart..<index])
                    text = ascii || UTF8Check.isWellFormed(decoded, 0..<decoded.count)
                        ? String(decoding: decoded, as: UTF8.self) : nil
                } else {
                    text = ascii || UTF8Check.isWellFormed(bytes, runStart..<index)
                        ? String(decoding: bytes[runStart..<index], as: UTF8.self) : nil
                }
                index += 1
                guard let text else { throw JSONReadError(offset: start, reason: "a string that is not UTF-8") }
                return text
            case UInt8(ascii: "\\"):
                decoded.append(contentsOf: bytes[runStart..<index])
                escaped = true
                try escape(into: &decoded)
                runStart = index
            case 0..<0x20:
                throw error("a control character in a string")
            case 0x80...:
                ascii = false
                index += 1
            default:
                index += 1
            }
        }
        throw JSONReadError(offset: start, reason: "a string that does not end")
    }

    /// Passes over a string, checking its escapes and control characters (not its UTF-8: a
    /// string nobody reads is never made into text, and JSONDecoder does not check it either).
    mutating func skipString() throws(JSONReadError) {
        guard peek() == UInt8(ascii: "\"") else { throw error("expected a string") }
        let start = index
        index += 1
        var scratch: [UInt8] = []
        while index < end {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index += 1
                return
            case UInt8(ascii: "\\"):
                scratch.removeAll(keepingCapacity: true)
                try escape(into: &scratch)
            case 0..<0x20:
                throw error("a control character in a string")
            default:
                index += 1
            }
        }
        throw JSONReadError(offset: start, reason: "a string that does not end")
    }

    /// Decodes the escape at the backslash under `index` as UTF-8 onto `decoded`.
    private mutating func escape(into decoded: inout [UInt8]) throws(JSONReadError) {
        guard index + 1 < end else { throw error("a string that does not end") }
        let kind = bytes[index + 1]
        if let simple = JSONEscape.byte(forLetter: kind) {
            decoded.append(simple)
            index += 2
            return
        }
        guard kind == UInt8(ascii: "u") else { throw error("an unknown escape in a string") }
        let at = index
        index += 2
        var value = try hexQuad()
        switch value {
        case 0xD800...0xDBFF:
            guard end - index >= 2, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw JSONReadError(offset: at, reason: "a high surrogate escape without its low one")
            }
            index += 2
            let low = try hexQuad()
            guard (0xDC00...0xDFFF).contains(low) else {
                throw JSONReadError(offset: at, reason: "a high surrogate escape without its low one")
            }
            value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
        case 0xDC00...0xDFFF:
            throw JSONReadError(offset: at, reason: "a low surrogate escape without a high one")
        default:
            break
        }
        guard let scalar = Unicode.Scalar(value) else { throw JSONReadError(offset: at, reason: "an escape of no character") }
        UTF8.encode(scalar) { decoded.append($0) }
    }

    /// The four hex digits of a `\u` escape.
    private mutating func hexQuad() throws(JSONReadError) -> UInt32 {
        guard end - index >= 4 else { throw error("a \\u escape without four hex digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8 = switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: throw error("a \\u escape without four hex digits")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }
}
