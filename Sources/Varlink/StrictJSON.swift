import WireJSON

/// Checks that bytes are exactly one RFC 8259 JSON text, before a lenient decoder sees them.
///
/// Foundation's JSONDecoder accepts more than RFC 8259 (trailing commas, and a repeated key where
/// the first one silently wins), so two parsers could read one message two ways. This scanner
/// accepts only the RFC grammar and also refuses a key repeated within one object, at any depth.
/// It keeps an explicit stack of open containers instead of recursing, so nesting costs no call stack.
struct StrictJSON {
    /// Nesting deeper than this is refused; JSONDecoder's own limit is the same.
    static let maximumDepth = 512

    /// Why the text is not strict JSON.
    enum Problem: Error, Equatable {
        /// The text breaks the RFC 8259 grammar at this byte offset.
        case syntax(offset: Int)
        /// An object names the same key twice; the offset is the second key's.
        case duplicateKey(offset: Int)
        /// Containers nest deeper than `maximumDepth`.
        case tooDeep
    }

    private enum Container {
        case array
        case object(keys: Set<[UInt8]>)
    }

    private let bytes: [UInt8]
    private var index = 0
    private var stack: [Container] = []
    /// The innermost container was just opened: no comma before its first member.
    private var justOpened = false

    /// Throws the first problem in `bytes`, or returns when they are one strict JSON text.
    static func validate(_ bytes: [UInt8]) throws(Problem) {
        var scanner = StrictJSON(bytes: bytes)
        try scanner.run()
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private mutating func run() throws(Problem) {
        try self.value()
        while !self.stack.isEmpty {
            try self.next()
        }
        self.skipWhitespace()
        guard self.index == self.bytes.count else { throw .syntax(offset: self.index) }
    }

    /// Inside the innermost container: its first member, a comma and the next one, or its end.
    private mutating func next() throws(Problem) {
        self.skipWhitespace()
        guard let container = self.stack.last, let byte = self.peek() else { throw .syntax(offset: self.index) }
        let isObject = if case .object = container { true } else { false }
        if byte == UInt8(ascii: isObject ? "}" : "]") {
            self.index += 1
            self.stack.removeLast()
            self.justOpened = false
            return
        }
        if self.justOpened {
            self.justOpened = false
        } else {
            guard byte == UInt8(ascii: ",") else { throw .syntax(offset: self.index) }
            self.index += 1
        }
        if isObject {
            try self.member()
        } else {
            try self.value()
        }
    }

    /// One value; an array or object is only opened, its members are read by `next()`.
    private mutating func value() throws(Problem) {
        self.skipWhitespace()
        guard let byte = self.peek() else { throw .syntax(offset: self.index) }
        switch byte {
        case UInt8(ascii: "{"): try self.open(.object(keys: []))
        case UInt8(ascii: "["): try self.open(.array)
        case UInt8(ascii: "\""): _ = try self.string()
        case UInt8(ascii: "t"): try self.literal("true")
        case UInt8(ascii: "f"): try self.literal("false")
        case UInt8(ascii: "n"): try self.literal("null")
        default: try self.number()
        }
    }

    /// `"key": value` in the innermost object; the key must be new to it.
    private mutating func member() throws(Problem) {
        self.skipWhitespace()
        let start = self.index
        guard self.peek() == UInt8(ascii: "\"") else { throw .syntax(offset: self.index) }
        let key = try self.string()
        guard case .object(var keys) = self.stack.removeLast() else { throw .syntax(offset: start) }
        guard keys.insert(key).inserted else { throw .duplicateKey(offset: start) }
        self.stack.append(.object(keys: keys))
        self.skipWhitespace()
        guard self.peek() == UInt8(ascii: ":") else { throw .syntax(offset: self.index) }
        self.index += 1
        try self.value()
    }

    private mutating func open(_ container: Container) throws(Problem) {
        guard self.stack.count < Self.maximumDepth else { throw .tooDeep }
        self.index += 1
        self.stack.append(container)
        self.justOpened = true
    }

    /// A string starting at `"`; returns its decoded text as UTF-8, so `"a"` and `"\u0061"` are
    /// the same key. The input is already known to be valid UTF-8.
    private mutating func string() throws(Problem) -> [UInt8] {
        self.index += 1
        var text: [UInt8] = []
        while let byte = self.peek() {
            self.index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return text
            case UInt8(ascii: "\\"):
                try self.escape(into: &text)
            case 0..<0x20:
                throw .syntax(offset: self.index - 1)
            default:
                text.append(byte)
            }
        }
        throw .syntax(offset: self.index)
    }

    private mutating func escape(into text: inout [UInt8]) throws(Problem) {
        guard let byte = self.peek() else { throw .syntax(offset: self.index) }
        self.index += 1
        if let simple = JSONEscape.byte(forLetter: byte) {
            text.append(simple)
            return
        }
        guard byte == UInt8(ascii: "u") else { throw .syntax(offset: self.index - 1) }
        let unit = try self.hexUnit()
        var scalar: Unicode.Scalar?
        if (0xD800..<0xDC00).contains(unit) {
            // A high surrogate must be followed by an escaped low one; alone it is no character.
            guard self.peek() == UInt8(ascii: "\\"), self.peek(at: 1) == UInt8(ascii: "u") else {
                throw .syntax(offset: self.index)
            }
            self.index += 2
            let low = try self.hexUnit()
            guard (0xDC00..<0xE000).contains(low) else { throw .syntax(offset: self.index - 6) }
            scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
        } else {
            scalar = Unicode.Scalar(unit)
        }
        guard let scalar else { throw .syntax(offset: self.index - 6) }
        text += Array(String(Character(scalar)).utf8)
    }

    private mutating func hexUnit() throws(Problem) -> UInt32 {
        var unit: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = self.peek(), let digit = Self.hexValue(byte) else { throw .syntax(offset: self.index) }
            unit = unit << 4 | digit
            self.index += 1
        }
        return unit
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`: no leading zeros, `+`, `.5`, NaN.
    private mutating func number() throws(Problem) {
        if self.peek() == UInt8(ascii: "-") { self.index += 1 }
        if self.peek() == UInt8(ascii: "0") {
            self.index += 1
        } else {
            try self.digits()
        }
        if self.peek() == UInt8(ascii: ".") {
            self.index += 1
            try self.digits()
        }
        if self.peek() == UInt8(ascii: "e") || self.peek() == UInt8(ascii: "E") {
            self.index += 1
            if self.peek() == UInt8(ascii: "+") || self.peek() == UInt8(ascii: "-") { self.index += 1 }
            try self.digits()
        }
    }

    /// One or more decimal digits.
    private mutating func digits() throws(Problem) {
        let start = self.index
        while let byte = self.peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
            self.index += 1
        }
        guard self.index > start else { throw .syntax(offset: self.index) }
    }

    private mutating func literal(_ word: String) throws(Problem) {
        let expected = word.utf8
        guard self.bytes.count - self.index >= expected.count,
              self.bytes[self.index..<self.index + expected.count].elementsEqual(expected)
        else { throw .syntax(offset: self.index) }
        self.index += expected.count
    }

    /// RFC 8259 white space: space, tab, line feed, carriage return; nothing else.
    private mutating func skipWhitespace() {
        while let byte = self.peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
            self.index += 1
        }
    }

    private func peek(at offset: Int = 0) -> UInt8? {
        let position = self.index + offset
        return position < self.bytes.count ? self.bytes[position] : nil
    }
}
