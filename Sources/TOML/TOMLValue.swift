/// A value of the TOML subset photod's config file uses: strings, integers, booleans, arrays
/// and tables. Floats, dates, inline tables and multi-line strings are refused by the parser.
public enum TOMLValue: Sendable, Equatable {
    case string(String)
    case integer(Int)
    case boolean(Bool)
    case array([TOMLValue])
    case table(TOMLTable)

    /// The type's name as config errors say it ("found int"): the names TOMLKit gave them.
    public var kind: String {
        switch self {
        case .string: "string"
        case .integer: "int"
        case .boolean: "bool"
        case .array: "array"
        case .table: "table"
        }
    }

    /// The string, when this is one.
    public var string: String? {
        if case .string(let value) = self { value } else { nil }
    }

    /// The integer, when this is one.
    public var int: Int? {
        if case .integer(let value) = self { value } else { nil }
    }

    /// The boolean, when this is one.
    public var bool: Bool? {
        if case .boolean(let value) = self { value } else { nil }
    }

    /// The elements, when this is an array.
    public var array: [TOMLValue]? {
        if case .array(let value) = self { value } else { nil }
    }

    /// The table, when this is one.
    public var table: TOMLTable? {
        if case .table(let value) = self { value } else { nil }
    }
}

/// A TOML table: its keys in the order the text defines them, and their values.
public struct TOMLTable: Sendable, Equatable {
    /// The keys, in the order they were first defined.
    public private(set) var keys: [String] = []
    private var values: [String: TOMLValue] = [:]

    /// An empty table.
    public init() {}

    /// The value of `key`, if the table has it.
    public subscript(key: String) -> TOMLValue? {
        values[key]
    }

    /// Adds `key`; the parser has already refused a key defined twice.
    mutating func add(_ key: String, _ value: TOMLValue) {
        if values.updateValue(value, forKey: key) == nil { keys.append(key) }
    }

    public static func == (left: TOMLTable, right: TOMLTable) -> Bool {
        left.values == right.values
    }
}

/// Text that is not TOML, or uses what the subset leaves out, with the place it starts at.
public struct TOMLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The line, from 1.
    public let line: Int
    /// The column, from 1, counted in Unicode scalars.
    public let column: Int
    /// What is wrong there.
    public let problem: String

    /// "line L, column C: problem".
    public var description: String { "line \(line), column \(column): \(problem)" }
}
