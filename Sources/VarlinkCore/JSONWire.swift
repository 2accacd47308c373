#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WireJSON

/// Any JSON value; used where the shape is not known in advance (error parameters from the wire).
package enum JSONValue: Codable, Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            // Integers first, so ids and tokens keep every digit.
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    package func encode(to encoder: any Encoder) throws {
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
}

/// Why an outgoing message could not be built.
package struct VarlinkEncodingError: Error, CustomStringConvertible {
    package let description: String

    package init(description: String) {
        self.description = description
    }
}

/// Building and reading whole varlink messages.
package enum JSONWire {
    package static let emptyObject: [UInt8] = Array("{}".utf8)

    /// Encodes with sorted keys, so equal values give equal bytes (VarlinkError is Equatable on them).
    package static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }

    /// Encodes message parameters, which varlink requires to be a JSON object.
    package static func encodeObject<T: Encodable>(_ value: T) throws -> [UInt8] {
        let bytes = try self.encode(value)
        guard bytes.first == UInt8(ascii: "{") else {
            throw VarlinkEncodingError(description: "\(T.self) does not encode to a JSON object")
        }
        return bytes
    }

    /// Writes message parameters with the type's own writer: the same bytes as `encodeObject`.
    package static func writeObject<T: JSONWritable>(_ value: T) throws -> [UInt8] {
        var writer = JSONWriter()
        try value.write(json: &writer)
        guard writer.bytes.first == UInt8(ascii: "{") else {
            throw VarlinkEncodingError(description: "\(T.self) does not encode to a JSON object")
        }
        return writer.bytes
    }

    package static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try JSONDecoder().decode(type, from: Data(bytes))
    }

    /// `{"parameters":…[,"continues":true]}` followed by the NUL terminator.
    package static func reply(parametersJSON: [UInt8], continues: Bool) -> [UInt8] {
        var message: [UInt8] = []
        message.reserveCapacity(parametersJSON.count + 40)
        message += Array(#"{"parameters":"#.utf8)
        message += parametersJSON
        message += Array((continues ? #","continues":true}"# : "}").utf8)
        message.append(0)
        return message
    }

    /// `{"error":"name","parameters":{…}}` followed by the NUL terminator.
    package static func errorReply(_ error: VarlinkError) -> [UInt8] {
        var message: [UInt8] = Array(#"{"error":"#.utf8)
        message += (try? self.encode(error.name)) ?? Array(#""""#.utf8)
        message += Array(#","parameters":"#.utf8)
        message += error.parametersJSON
        message += Array("}".utf8)
        message.append(0)
        return message
    }

    /// `{"method":"…","parameters":{…}[,"more":true|,"oneway":true]}` followed by the NUL terminator.
    /// A server refuses a call with both flags, so callers set at most one. The name is written
    /// by JSONWriter (JSONEncoder's bytes), sparing a short command JSONEncoder's first use.
    package static func call(method: String, parametersJSON: [UInt8], more: Bool, oneway: Bool = false) throws -> [UInt8] {
        var message: [UInt8] = Array(#"{"method":"#.utf8)
        var name = JSONWriter()
        name.string(method)
        message += name.bytes
        message += Array(#","parameters":"#.utf8)
        message += parametersJSON
        if more {
            message += Array(#","more":true"#.utf8)
        }
        if oneway {
            message += Array(#","oneway":true"#.utf8)
        }
        message += Array("}".utf8)
        message.append(0)
        return message
    }
}
