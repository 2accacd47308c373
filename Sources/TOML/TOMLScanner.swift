/// Reads a TOML text's bytes one piece at a time (keys, values, blanks, comments, line ends),
/// and knows the line and column of where it is, for errors.
///
/// The text is hostile: every loop advances, nesting is capped, and no number overflows.
struct TOMLScanner {
    /// Arrays nested deeper than this are refused, so the recursion stays shallow.
    static let maxDepth = 32
    /// A key of more dotted parts than this is refused, so tables nest only so deep.
    static let maxKeyParts = 32

    private let bytes: [UInt8]
    private var offset = 0
    private var line = 1
    private var lineStart = 0

    init(_ text: String) {
        bytes = Array(text.utf8)
        // A byte order mark, as some editors write, is not part of the first line.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            offset = 3
            lineStart = 3
        }
    }

    var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    var atEnd: Bool { offset >= bytes.count }

    private func byte(after count: Int) -> UInt8? {
        offset + count < bytes.count ? bytes[offset + count] : nil
    }

    /// An error at `position` (a byte offset on the current line; default where the scanner is).
    func error(_ problem: String, at position: Int? = nil) -> TOMLError {
        let end = min(max(position ?? offset, lineStart), bytes.count)
        // Columns count scalars: every byte but UTF-8's continuation bytes starts one.
        let column = bytes[lineStart..<end].reduce(1) { $1 & 0xC0 == 0x80 ? $0 : $0 + 1 }
        return TOMLError(line: line, column: column, problem: problem)
    }

    /// What the scanner is looking at, for "found …" in an error.
    func found() -> String {
        guard let byte = current else { return "the end of the file" }
        switch byte {
        case .lf, .cr: return "the end of the line"
        case 0x21...0x7E: return "'\(Character(Unicode.Scalar(byte)))'"
        default:
            let scalar = String(decoding: bytes[offset..<min(offset + 4, bytes.count)], as: UTF8.self).unicodeScalars.first
            return scalar.map(Self.name) ?? "a byte that is not text"
        }
    }

    static func name(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    static func isControl(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != .tab) || byte == 0x7F
    }

    mutating func advance() { offset += 1 }

    /// Skips spaces and tabs.
    mutating func skipSpaces() {
        while current == .space || current == .tab { offset += 1 }
    }

    /// Skips a comment, if one starts here, up to (not over) the end of its line.
    mutating func skipComment() throws(TOMLError) {
        guard current == .hash else { return }
        while let character = current, character != .lf {
            if character == .cr, byte(after: 1) == .lf { return }
            if Self.isControl(character) {
                throw error("\(Self.name(Unicode.Scalar(character))), a control character, is not allowed in a comment")
            }
            offset += 1
        }
    }

    /// Passes a line end (LF or CRLF), if one is here.
    mutating func skipLineEnd() -> Bool {
        if current == .lf {
            offset += 1
        } else if current == .cr, byte(after: 1) == .lf {
            offset += 2
        } else {
            return false
        }
        line += 1
        lineStart = offset
        return true
    }

    /// Skips white space, comments and line ends: what may stand between an array's elements.
    mutating func skipBlanks() throws(TOMLError) {
        repeat {
            skipSpaces()
            try skipComment()
        } while skipLineEnd()
    }

    /// A key: one or more bare or quoted parts joined by dots.
    mutating func key() throws(TOMLError) -> [String] {
        var parts: [String] = []
        while true {
            skipSpaces()
            if parts.count == Self.maxKeyParts {
                throw error("a key of more than \(Self.maxKeyParts) dotted parts")
            }
            parts.append(try simpleKey())
            skipSpaces()
            guard current == .dot else { return parts }
            offset += 1
        }
    }

    private mutating func simpleKey() throws(TOMLError) -> String {
        switch current {
        case .quote: return try basicString()
        case .apostrophe: return try literalString()
        case let byte? where Self.isBare(byte):
            let start = offset
            while let byte = current, Self.isBare(byte) { offset += 1 }
            return String(decoding: bytes[start..<offset], as: UTF8.self)
        default:
            throw error("expected a key (letters, digits, _ and -, or a quoted string), found \(found())")
        }
    }

    static func isBare(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"): true
        default: false
        }
    }

    /// A value: a string, an integer, a boolean or an array of values.
    mutating func value(depth: Int = 0) throws(TOMLError) -> TOMLValue {
        switch current {
        case .quote: return .string(try basicString())
        case .apostrophe: return .string(try literalString())
        case .openBracket: return try array(depth: depth)
        case UInt8(ascii: "{"):
            throw error("inline tables ({ … }) are not supported here; write the keys under a [table] header")
        case let byte? where TOMLWord.isWordByte(byte):
            let start = offset
            while let byte = current, TOMLWord.isWordByte(byte) { offset += 1 }
            switch TOMLWord.value(bytes[start..<offset]) {
            case .success(let value): return value
            case .failure(let problem): throw error(problem.description, at: start)
            }
        default:
            throw error("expected a value (a \"string\", an integer, true, false or an [array]), found \(found())")
        }
    }

    private mutating func array(depth: Int) throws(TOMLError) -> TOMLValue {
        guard depth < Self.maxDepth else { throw error("arrays nested more than \(Self.maxDepth) deep") }
        offset += 1
        var elements: [TOMLValue] = []
        while true {
            try skipBlanks()
            if current == .closeBracket { break }
            elements.append(try value(depth: depth + 1))
            try skipBlanks()
            if current == .closeBracket { break }
            guard current == .comma else { throw error("expected ',' or ']' in the array, found \(found())") }
            offset += 1
        }
        offset += 1
        return .array(elements)
    }

    /// A "basic string", with escapes, on one line.
    private mutating func basicString() throws(TOMLError) -> String {
        let start = offset
        if byte(after: 1) == .quote, byte(after: 2) == .quote {
            throw error("multi-line strings (\"\"\") are not supported here; write the string on one line", at: start)
        }
        offset += 1
        var text: [UInt8] = []
        while true {
            guard let byte = current, byte != .lf, byte != .cr else {
                throw error("the string is not closed on its line", at: start)
            }
            switch byte {
            case .quote:
                offset += 1
                return String(decoding: text, as: UTF8.self)
            case .backslash:
                try escape(into: &text)
            case _ where Self.isControl(byte):
                throw error("\(Self.name(Unicode.Scalar(byte))), a control character, must be escaped in a string")
            default:
                text.append(byte)
                offset += 1
            }
        }
    }

    private mutating func escape(into text: inout [UInt8]) throws(TOMLError) {
        let start = offset
        offset += 1
        guard let letter = current else { throw error("the string is not closed on its line", at: start) }
        offset += 1
        switch letter {
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "r"): text.append(0x0D)
        case .quote, .backslash: text.append(letter)
        case UInt8(ascii: "u"): try unicodeEscape(digits: 4, from: start, into: &text)
        case UInt8(ascii: "U"): try unicodeEscape(digits: 8, from: start, into: &text)
        default:
            offset -= 1
            throw error("\\ followed by \(found()) is not an escape; \\\\ is a backslash", at: start)
        }
    }

    private mutating func unicodeEscape(digits: Int, from start: Int, into text: inout [UInt8]) throws(TOMLError) {
        var value: UInt32 = 0
        for _ in 0..<digits {
            guard let byte = current, let digit = TOMLWord.digit(byte, radix: 16) else {
                throw error("\\\(digits == 4 ? "u" : "U") needs \(digits) hexadecimal digits", at: start)
            }
            value = value << 4 | UInt32(digit)
            offset += 1
        }
        guard let scalar = Unicode.Scalar(value) else {
            throw error("\\\(digits == 4 ? "u" : "U") names no Unicode scalar value", at: start)
        }
        text.append(contentsOf: String(scalar).utf8)
    }

    /// A 'literal string': no escapes, on one line.
    private mutating func literalString() throws(TOMLError) -> String {
        let start = offset
        if byte(after: 1) == .apostrophe, byte(after: 2) == .apostrophe {
            throw error("multi-line strings (''') are not supported here; write the string on one line", at: start)
        }
        offset += 1
        let textStart = offset
        while true {
            guard let byte = current, byte != .lf, byte != .cr else {
                throw error("the string is not closed on its line", at: start)
            }
            if byte == .apostrophe { break }
            if Self.isControl(byte) {
                throw error("\(Self.name(Unicode.Scalar(byte))), a control character, is not allowed in a 'literal string'")
            }
            offset += 1
        }
        defer { offset += 1 }
        return String(decoding: bytes[textStart..<offset], as: UTF8.self)
    }
}

extension UInt8 {
    static let tab = UInt8(ascii: "\t")
    static let lf = UInt8(ascii: "\n")
    static let cr = UInt8(ascii: "\r")
    static let space = UInt8(ascii: " ")
    static let hash = UInt8(ascii: "#")
    static let quote = UInt8(ascii: "\"")
    static let apostrophe = UInt8(ascii: "'")
    static let backslash = UInt8(ascii: "\\")
    static let dot = UInt8(ascii: ".")
    static let comma = UInt8(ascii: ",")
    static let equals = UInt8(ascii: "=")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
}
