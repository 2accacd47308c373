/// A parsed varlink interface description (the IDL of varlink.org): its name, named types,
/// methods and errors, so a server can check what it serves against what it promises and a
/// generator can write the types from it. The one IDL reader: it links no SwiftNIO, so the
/// client side and the generator read interfaces with it too.
public struct VarlinkIDL: Sendable, Equatable {
    /// A varlink type.
    public indirect enum TypeSpec: Sendable, Equatable {
        case bool, int, float, string, object
        /// `?T`.
        case optional(TypeSpec)
        /// `[]T`.
        case array(TypeSpec)
        /// `[string]T`.
        case map(TypeSpec)
        /// `(a, b, c)`.
        case enumeration([String])
        /// `(name: T, ...)`.
        case structure([Field])
        /// A type the interface names with `type`.
        case named(String)
    }

    /// One field of a struct, a method's input or output, or an error's parameters.
    public struct Field: Sendable, Equatable {
        /// The field's name.
        public var name: String
        /// Its type.
        public var type: TypeSpec
        /// The comment lines written on their own lines just before the field, without `#`.
        public var doc: [String]

        /// A field; `doc` is its comment.
        public init(name: String, type: TypeSpec, doc: [String] = []) {
            self.name = name
            self.type = type
            self.doc = doc
        }
    }

    /// One method: its input and output fields.
    public struct Method: Sendable, Equatable {
        /// The method's name, without the interface.
        public var name: String
        /// Its parameters.
        public var input: [Field]
        /// Its reply's fields.
        public var output: [Field]
    }

    /// One `type`, `method` or `error` as written, in order, with the comment before it.
    public struct Member: Sendable, Equatable {
        /// Which keyword declared it.
        public enum Kind: Sendable, Equatable {
            case type, method, error
        }

        /// Its keyword.
        public var kind: Kind
        /// Its name.
        public var name: String
        /// The comment lines just before it (no blank line between), without `#`.
        public var doc: [String]
    }

    /// The interface's name (`io.photod.Library`).
    public var name: String
    /// Named types, by name.
    public var types: [String: TypeSpec]
    /// Methods, in the order written.
    public var methods: [Method]
    /// Errors, by name, with their parameters.
    public var errors: [String: [Field]]
    /// Every type, method and error in the order written, with its comment.
    public var members: [Member]

    init(name: String) {
        self.name = name
        self.types = [:]
        self.methods = []
        self.errors = [:]
        self.members = []
    }

    /// Parses `text`; throws, naming the line, on anything that is not valid IDL.
    public init(parsing text: String) throws(VarlinkIDLError) {
        var parser = VarlinkIDLParser(text: text)
        self = try parser.parseInterface()
    }

    /// The method called `name`, if the interface has one.
    public func method(_ name: String) -> Method? {
        methods.first { $0.name == name }
    }
}

/// Why an interface description could not be parsed.
public struct VarlinkIDLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The 1-based line of the problem.
    public var line: Int
    /// What was wrong there.
    public var reason: String

    /// The problem `reason` at `line`.
    public init(line: Int, reason: String) {
        self.line = line
        self.reason = reason
    }

    public var description: String { "interface description, line \(line): \(reason)" }
}

/// A recursive-descent parser over the IDL's UTF-8 bytes (varlink's names and punctuation are
/// ASCII; only comments hold anything else); comments run from `#` to the line's end.
/// Comments that stand on lines of their own, with no blank line before what follows, are kept
/// as that member's or field's documentation.
struct VarlinkIDLParser {
    private let characters: [UInt8]
    private var index = 0
    private var line = 1
    /// Whether the current line has had anything but spaces before `index`.
    private var lineHasCode = false
    /// The comment lines since the last code or blank line: the doc of what comes next.
    private var pendingDoc: [String] = []

    init(text: String) {
        characters = Array(text.utf8)
    }

    mutating func parseInterface() throws(VarlinkIDLError) -> VarlinkIDL {
        try expectWord("interface")
        let name = try interfaceName()
        var idl = VarlinkIDL(name: name)
        while true {
            skipSpace()
            guard index < characters.count else { return idl }
            let doc = pendingDoc
            let keyword = word()
            switch keyword {
            case "type":
                let typeName = try identifier()
                guard idl.types[typeName] == nil else { throw fail("type \(typeName) is defined twice") }
                idl.types[typeName] = try typeDefinition()
                idl.members.append(VarlinkIDL.Member(kind: .type, name: typeName, doc: doc))
            case "method":
                let methodName = try identifier()
                guard idl.method(methodName) == nil else { throw fail("method \(methodName) is defined twice") }
                let input = try fields()
                try expect("->")
                idl.methods.append(VarlinkIDL.Method(name: methodName, input: input, output: try fields()))
                idl.members.append(VarlinkIDL.Member(kind: .method, name: methodName, doc: doc))
            case "error":
                let errorName = try identifier()
                guard idl.errors[errorName] == nil else { throw fail("error \(errorName) is defined twice") }
                idl.errors[errorName] = try fields()
                idl.members.append(VarlinkIDL.Member(kind: .error, name: errorName, doc: doc))
            default:
                throw fail("expected type, method or error, found \"\(keyword)\"")
            }
        }
    }

    /// `(a, b)` is an enum; `(a: T)` or `()` a struct.
    private mutating func typeDefinition() throws(VarlinkIDLError) -> VarlinkIDL.TypeSpec {
        skipSpace()
        let start = (index, line)
        try expect("(")
        skipSpace()
        if peek(")") {
            index += 1
            return .structure([])
        }
        _ = try identifier()
        skipSpace()
        let isStruct = peek(":")
        (index, line) = start
        if isStruct { return .structure(try fields()) }
        try expect("(")
        var cases: [String] = []
        repeat {
            cases.append(try identifier())
            skipSpace()
        } while consume(",")
        try expect(")")
        return .enumeration(cases)
    }

    private mutating func fields() throws(VarlinkIDLError) -> [VarlinkIDL.Field] {
        try expect("(")
        var result: [VarlinkIDL.Field] = []
        skipSpace()
        if consume(")") { return result }
        repeat {
            skipSpace()
            let doc = pendingDoc
            let name = try identifier()
            guard !result.contains(where: { $0.name == name }) else { throw fail("field \(name) appears twice") }
            try expect(":")
            result.append(VarlinkIDL.Field(name: name, type: try typeSpec(), doc: doc))
            skipSpace()
        } while consume(",")
        try expect(")")
        return result
    }

    private mutating func typeSpec() throws(VarlinkIDLError) -> VarlinkIDL.TypeSpec {
        skipSpace()
        if consume("?") { return .optional(try typeSpec()) }
        if consume("[]") { return .array(try typeSpec()) }
        if consume("[string]") { return .map(try typeSpec()) }
        if peek("(") { return try typeDefinition() }
        switch try identifier() {
        case "bool": return .bool
        case "int": return .int
        case "float": return .float
        case "string": return .string
        case "object": return .object
        case let name where name.first?.isUppercase == true: return .named(name)
        case let other: throw fail("unknown type \(other)")
        }
    }

    // MARK: Characters

    private mutating func skipSpace() {
        while index < characters.count {
            let character = characters[index]
            if character == UInt8(ascii: "#") {
                let start = index + 1
                while index < characters.count, characters[index] != UInt8(ascii: "\n") { index += 1 }
                if !lineHasCode { pendingDoc.append(Self.docLine(characters[start..<index])) }
            } else if Self.isSpace(character) {
                if character == UInt8(ascii: "\n") {
                    // A blank line parts a comment from what follows; a code line ends its doc.
                    if !lineHasCode, characters[lineStart(before: index)..<index].allSatisfy(Self.isSpace) {
                        pendingDoc = []
                    }
                    line += 1
                    lineHasCode = false
                }
                index += 1
            } else {
                return
            }
        }
    }

    /// Marks the current line as holding code, so a comment after it documents nothing.
    private mutating func markCode() {
        if !lineHasCode { pendingDoc = [] }
        lineHasCode = true
    }

    /// The index where the line holding `position` starts.
    private func lineStart(before position: Int) -> Int {
        var start = position
        while start > 0, characters[start - 1] != UInt8(ascii: "\n") { start -= 1 }
        return start
    }

    /// A comment's text without the one space that usually follows `#`, nor a CR before its line's end.
    private static func docLine(_ text: ArraySlice<UInt8>) -> String {
        var text = text.first == UInt8(ascii: " ") ? text.dropFirst() : text
        if text.last == UInt8(ascii: "\r") { text = text.dropLast() }
        return String(decoding: text, as: UTF8.self)
    }

    /// Space, tab, newline, carriage return, vertical tab and form feed.
    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }

    /// An ASCII letter or digit: what names are made of.
    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    /// What a word (a keyword, a name, an interface name) is made of.
    private static func isWordByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-"): true
        default: isLetter(byte)
        }
    }

    private func peek(_ text: String) -> Bool {
        let wanted = text.utf8
        return index + wanted.count <= characters.count && characters[index..<index + wanted.count].elementsEqual(wanted)
    }

    private mutating func consume(_ text: String) -> Bool {
        skipSpace()
        guard peek(text) else { return false }
        markCode()
        index += text.utf8.count
        return true
    }

    private mutating func expect(_ text: String) throws(VarlinkIDLError) {
        guard consume(text) else { throw fail("expected \"\(text)\"") }
    }

    private mutating func word() -> String {
        skipSpace()
        markCode()
        let start = index
        while index < characters.count, Self.isWordByte(characters[index]) { index += 1 }
        return String(decoding: characters[start..<index], as: UTF8.self)
    }

    private mutating func expectWord(_ wanted: String) throws(VarlinkIDLError) {
        let found = word()
        guard found == wanted else { throw fail("expected \"\(wanted)\", found \"\(found)\"") }
    }

    /// A name of letters, digits and underscores that starts with a letter.
    private mutating func identifier() throws(VarlinkIDLError) -> String {
        let found = word()
        guard let first = found.first, first.isLetter, found.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
        else { throw fail("expected a name, found \"\(found)\"") }
        return found
    }

    /// A reverse-domain name: dot-separated parts of letters, digits and dashes.
    private mutating func interfaceName() throws(VarlinkIDLError) -> String {
        let found = word()
        let parts = found.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 2, parts.allSatisfy({ !$0.isEmpty && $0.first?.isLetter == true }) else {
            throw fail("expected an interface name like org.example.Name, found \"\(found)\"")
        }
        return found
    }

    private func fail(_ reason: String) -> VarlinkIDLError {
        VarlinkIDLError(line: line, reason: reason)
    }
}
