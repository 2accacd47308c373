/// Conversions to UTF-8 for text that metadata stores in other encodings.
enum TextDecoding {
    /// UTF-8 as it should be: ill-formed sequences become U+FFFD, so what is declared UTF-8 always is.
    static func validUTF8<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> [UInt8] {
        Array(String(decoding: bytes, as: UTF8.self).utf8)
    }

    /// ISO 8859-1: every byte is the code point of the same value.
    static func latin1ToUTF8<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        for byte in bytes {
            if byte < 0x80 {
                result.append(byte)
            } else {
                result.append(0xC0 | byte >> 6)
                result.append(0x80 | byte & 0x3F)
            }
        }
        return result
    }

    /// UTF-16 in the given byte order; unpaired surrogates become U+FFFD.
    static func utf16ToUTF8<Bytes: Collection<UInt8>>(_ bytes: Bytes, bigEndian: Bool) -> [UInt8] {
        let array = Array(bytes)
        var units: [UInt16] = []
        units.reserveCapacity(array.count / 2)
        var index = 0
        while index + 1 < array.count {
            let first = UInt16(array[index]), second = UInt16(array[index + 1])
            units.append(bigEndian ? first << 8 | second : second << 8 | first)
            index += 2
        }
        var result: [UInt8] = []
        result.reserveCapacity(units.count)
        for scalar in Unicode.UTF16.decode(units) {
            result += Array(String(scalar).utf8)
        }
        return result
    }
}

extension Unicode.UTF16 {
    /// Decodes code units, replacing what is not UTF-16 with U+FFFD.
    fileprivate static func decode(_ units: [UInt16]) -> [Unicode.Scalar] {
        var scalars: [Unicode.Scalar] = []
        var iterator = units.makeIterator()
        var decoder = Unicode.UTF16()
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): scalars.append(scalar)
            case .error: scalars.append("\u{FFFD}")
            case .emptyInput: break loop
            }
        }
        return scalars
    }
}
