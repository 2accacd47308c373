/// A wire type that writes itself as JSON, byte for byte as JSONWire's JSONEncoder would.
public protocol JSONWritable {
    /// Appends the value's JSON text.
    func write(json: inout JSONWriter) throws(JSONWriteError)
}

extension String: JSONWritable {
    /// Writes a JSON string.
    public func write(json: inout JSONWriter) throws(JSONWriteError) { json.string(self) }
}

extension Int: JSONWritable {
    /// Writes the number.
    public func write(json: inout JSONWriter) throws(JSONWriteError) { json.int(self) }
}

extension Double: JSONWritable {
    /// Writes the number; NaN and the infinities are refused.
    public func write(json: inout JSONWriter) throws(JSONWriteError) { try json.double(self) }
}

extension Bool: JSONWritable {
    /// Writes `true` or `false`.
    public func write(json: inout JSONWriter) throws(JSONWriteError) { json.bool(self) }
}

extension Optional: JSONWritable where Wrapped: JSONWritable {
    /// Writes the value, or `null` (an optional member that is absent is left out by its object instead).
    @inlinable
    public func write(json: inout JSONWriter) throws(JSONWriteError) {
        guard let self else { return json.null() }
        try self.write(json: &json)
    }
}

extension Array: JSONWritable where Element: JSONWritable {
    /// Writes a JSON array.
    @inlinable
    public func write(json: inout JSONWriter) throws(JSONWriteError) {
        json.beginArray()
        for element in self {
            json.separate()
            try element.write(json: &json)
        }
        json.endArray()
    }
}

extension Dictionary: JSONWritable where Key == String, Value: JSONWritable {
    /// Writes a JSON object, its keys in byte order as JSONEncoder's `sortedKeys` puts them.
    @inlinable
    public func write(json: inout JSONWriter) throws(JSONWriteError) {
        json.beginObject()
        for key in keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            guard let value = self[key] else { continue }
            try json.member(key, value)
        }
        json.endObject()
    }
}

extension JSONWritable where Self: RawRepresentable, RawValue == String {
    /// Writes the raw value, as the synthesized Encodable of a string enum does.
    public func write(json: inout JSONWriter) throws(JSONWriteError) { json.string(rawValue) }
}
