/// Checks messages against an interface's IDL at run time, the way sd-varlink validates calls
/// and replies: field names, types and optionality, through named types.
///
/// photod's types are generated from the IDL, so a mismatch is a programming error (a hand-made
/// type, a reply built wrongly, a client sending what the IDL does not say). It is checked in
/// debug builds and tests only (`isEnabled`): release builds keep it off their hot path.
package struct VarlinkIDLCheck: Sendable {
    /// Whether messages are checked: in debug builds, never in release builds.
    package static var isEnabled: Bool {
        #if DEBUG
        true
        #else
        false
        #endif
    }

    /// What is checked against.
    package let idl: VarlinkIDL

    /// A check against `idl`.
    package init(_ idl: VarlinkIDL) {
        self.idl = idl
    }

    /// Where `parameters` (a message's JSON object) first differs from `fields`, as a path
    /// (`assets[0].id: …`), or nil when it matches. Fields the IDL does not name are a mismatch
    /// unless `unknownFieldsAllowed` (what a sender must not send, a reader may have to accept).
    package func mismatch(_ parameters: JSONValue, _ fields: [VarlinkIDL.Field], unknownFieldsAllowed: Bool) -> String? {
        mismatch(parameters, .structure(fields), at: "", unknownFieldsAllowed: unknownFieldsAllowed)
    }

    /// The same for the JSON text of a message's parameters; text that is not JSON is a mismatch too.
    package func mismatch(parametersJSON: [UInt8], _ fields: [VarlinkIDL.Field], unknownFieldsAllowed: Bool) -> String? {
        guard let value = try? JSONWire.decode(JSONValue.self, from: parametersJSON) else { return "not JSON" }
        return mismatch(value, fields, unknownFieldsAllowed: unknownFieldsAllowed)
    }

    private func mismatch(_ value: JSONValue, _ type: VarlinkIDL.TypeSpec, at path: String,
                          unknownFieldsAllowed: Bool) -> String? {
        switch (type, value) {
        case (.optional(let inner), _):
            if case .null = value { return nil }
            return mismatch(value, inner, at: path, unknownFieldsAllowed: unknownFieldsAllowed)
        case (.bool, .bool), (.int, .integer), (.float, .integer), (.float, .double), (.string, .string), (.object, .object):
            return nil
        case (.int, .double(let number)) where number.rounded() == number:
            return nil
        case (.enumeration(let cases), .string(let text)):
            return cases.contains(text) ? nil : "\(Self.name(path)): \"\(text)\" is none of \(cases.joined(separator: ", "))"
        case (.array(let element), .array(let items)):
            for (index, item) in items.enumerated() {
                if let found = mismatch(item, element, at: path + "[\(index)]", unknownFieldsAllowed: unknownFieldsAllowed) {
                    return found
                }
            }
            return nil
        case (.map(let element), .object(let entries)):
            for key in entries.keys.sorted() {
                if let entry = entries[key],
                   let found = mismatch(entry, element, at: path + "[\"\(key)\"]", unknownFieldsAllowed: unknownFieldsAllowed) {
                    return found
                }
            }
            return nil
        case (.structure(let fields), .object(let entries)):
            return mismatch(entries, fields, at: path, unknownFieldsAllowed: unknownFieldsAllowed)
        case (.named(let name), _):
            guard let named = idl.types[name] else { return "\(Self.name(path)): the IDL has no type \(name)" }
            return mismatch(value, named, at: path, unknownFieldsAllowed: unknownFieldsAllowed)
        default:
            return "\(Self.name(path)): expected \(type), found \(value.kind)"
        }
    }

    private func mismatch(_ entries: [String: JSONValue], _ fields: [VarlinkIDL.Field], at path: String,
                          unknownFieldsAllowed: Bool) -> String? {
        let prefix = path.isEmpty ? "" : path + "."
        for field in fields {
            let value = entries[field.name] ?? .null
            if case .null = value, case .optional = field.type { continue }
            if case .null = value { return "\(prefix)\(field.name): missing" }
            if let found = mismatch(value, field.type, at: prefix + field.name, unknownFieldsAllowed: unknownFieldsAllowed) {
                return found
            }
        }
        guard !unknownFieldsAllowed else { return nil }
        let unknown = Set(entries.keys).subtracting(fields.map(\.name)).sorted()
        return unknown.first.map { "\(prefix)\($0): not in the IDL" }
    }

    private static func name(_ path: String) -> String {
        path.isEmpty ? "parameters" : path
    }

    /// The top-level field a mismatch is about (`assets` for `assets[0].id: …`), for
    /// InvalidParameter, which names one parameter.
    package static func field(of mismatch: String) -> String {
        String(mismatch.prefix { $0 != "." && $0 != "[" && $0 != ":" })
    }

    /// Reports a mismatch in what this process sent: a programming error, loud in debug builds.
    package static func report(_ problem: String) {
        assertionFailure("varlink message does not match its IDL: \(problem)")
    }
}

extension VarlinkIDL.TypeSpec: CustomStringConvertible {
    /// The type as the IDL writes it (`?[]string`, `(a, b)`).
    public var description: String {
        switch self {
        case .bool: "bool"
        case .int: "int"
        case .float: "float"
        case .string: "string"
        case .object: "object"
        case .optional(let inner): "?\(inner)"
        case .array(let inner): "[]\(inner)"
        case .map(let inner): "[string]\(inner)"
        case .enumeration(let cases): "(" + cases.joined(separator: ", ") + ")"
        case .structure(let fields): "(" + fields.map { "\($0.name): \($0.type)" }.joined(separator: ", ") + ")"
        case .named(let name): name
        }
    }
}

extension JSONValue {
    /// What kind of value it is, for messages (never the value: it may be large, or private).
    var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a bool"
        case .integer: "an integer"
        case .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
