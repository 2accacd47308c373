/// A strict (RFC 8259) pull reader of one JSON text, for wire types that read themselves
/// (`JSONReadable`) rather than through JSONDecoder.
///
/// JSONDecoder parses a whole reply into a map before the first field is decoded, and reads
/// each field through the generic Decoder protocol: most of a short photoctl command's work
/// for a page of assets. This reader walks the bytes once, straight into the fields. It is
/// stricter than JSONDecoder: it refuses trailing commas, a byte order mark, a key repeated in
/// an object it reads, and bad escapes or numbers even in values nobody reads; it reads the
/// values it decodes exactly as JSONDecoder would. Bytes are indexed, never borrowed through a
/// pointer, so a hostile message can at worst be refused.
public struct JSONReader {
    /// Containers nest no deeper than this when skipped; JSONDecoder's limit is the same.
    public static let maximumDepth = 512

    @usableFromInline let bytes: [UInt8]
    @usableFromInline var index: Int
    /// Where the text ends: the end of `bytes`, or of the part given.
    @usableFromInline let end: Int

    /// A reader of `bytes[range]` (all of `bytes` when nil); offsets in errors count from `bytes`' start.
    public init(_ bytes: [UInt8], range: Range<Int>? = nil) {
        self.bytes = bytes
        self.index = range?.lowerBound ?? 0
        self.end = range?.upperBound ?? bytes.count
    }

    /// The offset of the next byte to read.
    public var offset: Int { index }

    /// An error at the next byte.
    public func error(_ reason: String) -> JSONReadError {
        JSONReadError(offset: index, reason: reason)
    }

    /// Throws unless nothing but whitespace is left.
    public mutating func finish() throws(JSONReadError) {
        skipWhitespace()
        guard index == end else { throw error("more after the JSON value") }
    }

    /// The next byte after any whitespace, which is left to read; nil at the end.
    @usableFromInline mutating func peek() -> UInt8? {
        skipWhitespace()
        return index < end ? bytes[index] : nil
    }

    mutating func skipWhitespace() {
        while index < end {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    /// Consumes `byte` after any whitespace, or throws saying what was `expected`.
    mutating func expect(_ byte: UInt8, _ expected: String) throws(JSONReadError) {
        guard peek() == byte else { throw error("expected \(expected)") }
        index += 1
    }

    /// Consumes `null` when it comes next; false (and nothing consumed) when another value does.
    public mutating func readNull() throws(JSONReadError) -> Bool {
        guard peek() == UInt8(ascii: "n") else { return false }
        try literal("null")
        return true
    }

    /// A `true` or `false`.
    public mutating func readBool() throws(JSONReadError) -> Bool {
        switch peek() {
        case UInt8(ascii: "t"): try literal("true"); return true
        case UInt8(ascii: "f"): try literal("false"); return false
        default: throw error("expected true or false")
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONReadError) {
        let count = word.utf8CodeUnitCount
        guard end - index >= count else { throw error("expected \(word)") }
        var matched = true
        word.withUTF8Buffer { text in
            for (position, byte) in text.enumerated() where bytes[index + position] != byte {
                matched = false
            }
        }
        guard matched else { throw error("expected \(word)") }
        index += count
    }

    /// Opens an object and reads its first key (and the colon after it); nil for `{}`.
    public mutating func firstKey() throws(JSONReadError) -> String? {
        try expect(UInt8(ascii: "{"), "an object")
        if peek() == UInt8(ascii: "}") {
            index += 1
            return nil
        }
        return try key()
    }

    /// After a member's value: the next key (and its colon), or nil once the object is closed.
    public mutating func nextKey() throws(JSONReadError) -> String? {
        try more(UInt8(ascii: "}")) ? try key() : nil
    }

    /// After a member or element: true past a comma, false past `closer`.
    mutating func more(_ closer: UInt8) throws(JSONReadError) -> Bool {
        switch peek() {
        case UInt8(ascii: ","):
            index += 1
            return true
        case closer:
            index += 1
            return false
        default:
            throw error("expected , or \(Character(Unicode.Scalar(closer)))")
        }
    }

    private mutating func key() throws(JSONReadError) -> String {
        guard peek() == UInt8(ascii: "\"") else { throw error("expected a key") }
        let key = try readString()
        try expect(UInt8(ascii: ":"), ": after a key")
        return key
    }

    /// Opens an array; true when an element follows, false for `[]`.
    public mutating func firstElement() throws(JSONReadError) -> Bool {
        try expect(UInt8(ascii: "["), "an array")
        guard peek() == UInt8(ascii: "]") else { return true }
        index += 1
        return false
    }

    /// After an element: true when another follows, false once the array is closed.
    public mutating func nextElement() throws(JSONReadError) -> Bool {
        try more(UInt8(ascii: "]"))
    }

    /// `value`, or an error naming `key` when the object had no such member.
    @inlinable
    public func required<T>(_ value: T?, _ key: StaticString) throws(JSONReadError) -> T {
        guard let value else { throw error("no \(key) in the object") }
        return value
    }

    /// Reads a member's value into `value`, refusing a key that was already read
    /// (JSONDecoder would keep the first and ignore the second; the server never repeats one).
    @inlinable
    public mutating func member<T: JSONReadable>(_ value: inout T?, _ key: StaticString) throws(JSONReadError) {
        guard value == nil else { throw error("\(key) repeated in an object") }
        value = try T(json: &self)
    }
}
