extension JSONReader {
    /// An integer, as JSONDecoder reads one into an Int: digits that fit, or any number whose
    /// value as a Double is exactly an Int (`1.0`, `1e2`, and `1e-400` as 0).
    public mutating func readInt() throws(JSONReadError) -> Int {
        let (text, integral) = try number()
        let tooLarge = JSONReadError(offset: text.lowerBound, reason: "a number that is no Int")
        guard integral else {
            guard let double = Double(String(decoding: bytes[text], as: UTF8.self)), double.isFinite,
                  let value = Int(exactly: double) else { throw tooLarge }
            return value
        }
        let negative = bytes[text.lowerBound] == UInt8(ascii: "-")
        var value = 0
        // Negative numbers are summed below zero, so Int.min fits.
        for byte in bytes[(negative ? text.lowerBound + 1 : text.lowerBound)..<text.upperBound] {
            let digit = Int(byte - UInt8(ascii: "0"))
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            let (next, carry) = negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            guard !overflow, !carry else { throw tooLarge }
            value = next
        }
        return value
    }

    /// A number as a Double; like JSONDecoder, refuses one beyond Double's range or one that
    /// is not zero but rounds to it.
    public mutating func readDouble() throws(JSONReadError) -> Double {
        let (text, _) = try number()
        guard let value = Double(String(decoding: bytes[text], as: UTF8.self)), value.isFinite else {
            throw JSONReadError(offset: text.lowerBound, reason: "a number beyond Double's range")
        }
        if value == 0 {
            let mantissa = bytes[text].prefix { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") }
            guard mantissa.allSatisfy({ $0 == UInt8(ascii: "0") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }) else {
                throw JSONReadError(offset: text.lowerBound, reason: "a number too small for a Double")
            }
        }
        return value
    }

    /// The bytes of the number that comes next, checked against RFC 8259's grammar (no `+`,
    /// leading zero, bare `.` or `NaN`), and whether it has neither fraction nor exponent.
    mutating func number() throws(JSONReadError) -> (Range<Int>, Bool) {
        _ = peek()
        let start = index
        if index < end, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < end, isDigit(bytes[index]) else { throw JSONReadError(offset: start, reason: "expected a number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            try digits()
        }
        var integral = true
        if index < end, bytes[index] == UInt8(ascii: ".") {
            integral = false
            index += 1
            try digits()
        }
        if index < end, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            integral = false
            index += 1
            if index < end, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            try digits()
        }
        return (start..<index, integral)
    }

    /// One or more digits.
    private mutating func digits() throws(JSONReadError) {
        guard index < end, isDigit(bytes[index]) else { throw error("expected a digit") }
        while index < end, isDigit(bytes[index]) { index += 1 }
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
