/// Writes a generated struct's `write(json:)`: its fields as JSONWire's JSONEncoder writes its
/// synthesized Encodable conformance (keys in byte order, absent optionals left out), so a
/// client builds a call's parameters without JSONEncoder.
enum WriterRenderer {
    /// The method's lines, indented for the struct's body.
    static func lines(fields: [SwiftField]) -> [String] {
        var lines = [
            "    /// Writes the value as its Encodable conformance does through JSONWire: keys sorted, absent optionals left out.",
            "    public func write(json: inout JSONWriter) throws(JSONWriteError) {",
            "        json.beginObject()",
        ]
        for field in fields.sorted(by: { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }) {
            let call = if case .optional = field.idlType { "memberIfPresent" } else { "member" }
            lines.append("        try json.\(call)(\"\(field.name)\", self.\(field.name))")
        }
        lines += [
            "        json.endObject()",
            "    }",
        ]
        return lines
    }
}
