/// A parsed varlink interface description (the IDL of varlink.org): its name, named types,
/// methods and errors, so a server can check what it serves against what it promises.
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

    /// The interface's name (`io.photod.Library`).
    public var name: String
    /// Named types, by name.
    public var types: [String: TypeSpec]
    /// Methods, in the order written.
    public var methods: [Method]
    /// Errors, by name, with their parameters.
    public var errors: [String: [Field]]

    init(name: String, types: [String: TypeSpec], methods: [Method], errors: [String: [Field]]) {
        self.name = name
        self.types = types
        self.methods = methods
        self.errors = errors
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

    public var description: String { "interface description, line \(line): \(reason)" }
}

/// A recursive-descent parser over the IDL's characters; comments run from `#` to the line's end.
struct VarlinkIDLParser {
    private let characters: [Character]
    private var index = 0
    private var line = 1

    init(text: String) {
        characters = Array(text)
    }

    mutating func parseInterface() throws(VarlinkIDLError) -> VarlinkIDL {
        try expectWord("interface")
        let name = try interfaceName()
        var idl = VarlinkIDL(name: name, types: [:], methods: [], errors: [:])
        while true {
            skipSpace()
            guard index < characters.count else { return idl }
            let keyword = word()
            switch keyword {
            case "type":
                let typeName = try identifier()
                guard idl.types[typeName] == nil else { throw fail("type \(typeName) is defined twice") }
                idl.types[typeName] = try typeDefinition()
            case "method":
                let methodName = try identifier()
                guard idl.method(methodName) == nil else { throw fail("method \(methodName) is defined twice") }
                let input = try fields()
                try expect("->")
                idl.methods.append(VarlinkIDL.Method(name: methodName, input: input, output: try fields()))
            case "error":
                let errorName = try identifier()
                guard idl.errors[errorName] == nil else { throw fail("error \(errorName) is defined twice") }
                idl.errors[errorName] = try fields()
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
            let name = try identifier()
            guard !result.contains(where: { $0.name == name }) else { throw fail("field \(name) appears twice") }
            try expect(":")
            result.append(VarlinkIDL.Field(name: name, type: try typeSpec()))
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
            if character == "#" {
                while index < characters.count, characters[index] != "\n" { index += 1 }
            } else if character.isWhitespace {
                if character == "\n" { line += 1 }
                index += 1
            } else {
                return
            }
        }
    }

    private func peek(_ text: String) -> Bool {
        let wanted = Array(text)
        return index + wanted.count <= characters.count && Array(characters[index..<index + wanted.count]) == wanted
    }

    private mutating func consume(_ text: String) -> Bool {
        skipSpace()
        guard peek(text) else { return false }
        index += text.count
        return true
    }

    private mutating func expect(_ text: String) throws(VarlinkIDLError) {
        guard consume(text) else { throw fail("expected \"\(text)\"") }
    }

    private mutating func word() -> String {
        skipSpace()
        let start = index
        while index < characters.count, characters[index].isLetter || characters[index].isNumber
            || characters[index] == "_" || characters[index] == "." || characters[index] == "-" {
            index += 1
        }
        return String(characters[start..<index])
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
