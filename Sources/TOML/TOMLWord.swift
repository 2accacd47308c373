/// The unquoted values: true, false and integers (decimal, 0x, 0o, 0b, with _ between digits);
/// a float, date or time is named, and refused, rather than misread.
enum TOMLWord {
    /// A byte that can be part of an unquoted value (letters, digits, + - _ . :), so that the
    /// whole word is judged at once: "1.5" is a float, not 1 followed by garbage.
    static func isWordByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "+"), UInt8(ascii: "-"),
             UInt8(ascii: "."), UInt8(ascii: ":"): true
        default: false
        }
    }

    /// The value `word` spells, or why it is none.
    static func value(_ word: ArraySlice<UInt8>) -> Result<TOMLValue, Problem> {
        if word.elementsEqual("true".utf8) { return .success(.boolean(true)) }
        if word.elementsEqual("false".utf8) { return .success(.boolean(false)) }
        switch integer(word) {
        case .some(.some(let value)): return .success(.integer(value))
        case .some(.none): return .failure(Problem("\(text(word)) does not fit in a 64-bit integer"))
        case .none: return .failure(Problem(unsupported(word)))
        }
    }

    /// Why an unquoted value is refused.
    struct Problem: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    private static func text(_ word: ArraySlice<UInt8>) -> String { ShownText.of(String(decoding: word, as: UTF8.self)) }

    private static func unsupported(_ word: ArraySlice<UInt8>) -> String {
        let unsigned = word.first == UInt8(ascii: "+") || word.first == UInt8(ascii: "-") ? word.dropFirst() : word
        let startsWithDigit = unsigned.first.map { digit($0, radix: 10) != nil } ?? false
        if word.contains(UInt8(ascii: ":")) || (startsWithDigit && unsigned.dropFirst(4).first == UInt8(ascii: "-")) {
            return "dates and times (\(text(word))) are not supported here"
        }
        if unsigned.elementsEqual("inf".utf8) || unsigned.elementsEqual("nan".utf8)
            || (startsWithDigit && unsigned.contains { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }) {
            return "floats (\(text(word))) are not supported here; write a whole number"
        }
        return "expected a value (a \"string\", an integer, true, false or an [array]), found \(text(word))"
    }

    /// The integer `word` spells; .some(nil) when it is one but too large, nil when it is none.
    static func integer(_ word: ArraySlice<UInt8>) -> Int?? {
        let radix: Int
        var body = word
        switch (word.first, word.dropFirst().first) {
        case (UInt8(ascii: "0"), UInt8(ascii: "x")): radix = 16
        case (UInt8(ascii: "0"), UInt8(ascii: "o")): radix = 8
        case (UInt8(ascii: "0"), UInt8(ascii: "b")): radix = 2
        default: radix = 10
        }
        var negative = false
        if radix == 10 {
            if body.first == UInt8(ascii: "+") || body.first == UInt8(ascii: "-") {
                negative = body.first == UInt8(ascii: "-")
                body = body.dropFirst()
            }
            // No leading zeros: 0 alone, or digits that start with 1 to 9.
            if body.first == UInt8(ascii: "0"), body.count > 1 { return nil }
        } else {
            body = body.dropFirst(2)
        }
        guard let digits = digits(body, radix: radix) else { return nil }
        // Accumulated below zero, where Int has one more value than above it.
        var value = 0
        for digit in digits {
            let (shifted, overflow) = value.multipliedReportingOverflow(by: radix)
            let (next, underflow) = shifted.subtractingReportingOverflow(digit)
            if overflow || underflow { return .some(nil) }
            value = next
        }
        if negative { return .some(value) }
        return value == Int.min ? .some(nil) : .some(-value)
    }

    /// The digit values of `body`: one digit or more, an underscore only between two digits.
    private static func digits(_ body: ArraySlice<UInt8>, radix: Int) -> [Int]? {
        var values: [Int] = []
        var afterDigit = false
        for byte in body {
            if byte == UInt8(ascii: "_") {
                guard afterDigit else { return nil }
                afterDigit = false
            } else if let value = digit(byte, radix: radix) {
                values.append(value)
                afterDigit = true
            } else {
                return nil
            }
        }
        return afterDigit ? values : nil
    }

    /// The value of one digit in `radix` (2, 8, 10 or 16).
    static func digit(_ byte: UInt8, radix: Int) -> Int? {
        let value: Int
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): value = Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): value = Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): value = Int(byte - UInt8(ascii: "A")) + 10
        default: return nil
        }
        return value < radix ? value : nil
    }
}
