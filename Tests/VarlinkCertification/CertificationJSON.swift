/// Any JSON value, compared the way the reference certification compares messages.
///
/// The reference server compares whole decoded messages with Python's `==`, where `1 == 1.0`
/// holds and key order does not matter; `bool` stays apart from numbers here on purpose, since
/// a varlink `bool` sent as `1` is a peer bug the Python comparison would miss.
enum JSON: Codable, Sendable, Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])

    /// Decodes whatever JSON value comes next.
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSON].self))
        }
    }

    /// Encodes the value as it is, `null` included (unlike a synthesized optional field).
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// Equal values; an integer equals a float of the same value, as in the reference.
    static func == (lhs: JSON, rhs: JSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.integer(let a), .double(let b)), (.double(let b), .integer(let a)): Double(a) == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a == b
        default: false
        }
    }

    /// The member `key` of an object; nil for a missing key or a value that is no object.
    subscript(key: String) -> JSON? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// This object without `keys`; any other value unchanged.
    func removing(_ keys: String...) -> JSON {
        guard case .object(var members) = self else { return self }
        for key in keys {
            members.removeValue(forKey: key)
        }
        return .object(members)
    }

    /// This object with `value` set at `key`; any other value unchanged.
    func setting(_ key: String, _ value: JSON) -> JSON {
        guard case .object(var members) = self else { return self }
        members[key] = value
        return .object(members)
    }

    /// Compact JSON text, for error messages and logs.
    var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .integer(let value): "\(value)"
        case .double(let value): "\(value)"
        case .string(let value): value.debugDescription
        case .array(let values): "[" + values.map(\.description).joined(separator: ",") + "]"
        case .object(let members):
            "{" + members.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}"
        }
    }
}

extension JSON: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// `nil` is JSON `null`.
    init(nilLiteral: ()) { self = .null }
    /// A literal `true` or `false`.
    init(booleanLiteral value: Bool) { self = .bool(value) }
    /// A literal integer.
    init(integerLiteral value: Int64) { self = .integer(value) }
    /// A literal float.
    init(floatLiteral value: Double) { self = .double(value) }
    /// A literal string.
    init(stringLiteral value: String) { self = .string(value) }
    /// A literal array.
    init(arrayLiteral elements: JSON...) { self = .array(elements) }
    /// A literal object; a repeated key keeps its last value.
    init(dictionaryLiteral elements: (String, JSON)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
