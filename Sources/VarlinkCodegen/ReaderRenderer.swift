/// Writes a generated struct's `init(json:)`: its fields read straight from a JSONReader, as its
/// synthesized Decodable conformance reads them (a required field must be there and not null;
/// an optional one may be absent or null; unknown members are passed over), without JSONDecoder.
enum ReaderRenderer {
    /// The initializer's lines, indented for the struct's body.
    static func lines(fields: [SwiftField]) -> [String] {
        var lines = [
            "    /// Reads the value as its Decodable conformance would, from a strict JSON reader.",
            "    public init(json: inout JSONReader) throws(JSONReadError) {",
        ]
        for field in fields {
            lines.append("        var \(local(field)): \(field.type)?")
        }
        lines.append("        var key = try json.firstKey()")
        if fields.isEmpty {
            lines += [
                "        while key != nil {",
                "            try json.skipValue()",
            ]
        } else {
            lines += [
                "        while let name = key {",
                "            switch name {",
            ]
            for field in fields {
                lines.append("            case \"\(field.name)\": try json.member(&\(local(field)), \"\(field.name)\")")
            }
            lines += [
                "            default: try json.skipValue()",
                "            }",
            ]
        }
        lines += [
            "            key = try json.nextKey()",
            "        }",
        ]
        for field in fields {
            if case .optional = field.idlType {
                lines.append("        self.\(field.name) = \(local(field)) ?? nil")
            } else {
                lines.append("        self.\(field.name) = try json.required(\(local(field)), \"\(field.name)\")")
            }
        }
        lines.append("    }")
        return lines
    }

    /// The local that holds a field until the object ends; prefixed so that no field name
    /// (`json`, `key`, a Swift keyword) can clash with the initializer's own names.
    private static func local(_ field: SwiftField) -> String {
        "found" + field.name.capitalizedFirst
    }
}
