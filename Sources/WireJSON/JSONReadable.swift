/// A wire type that reads itself from a JSONReader, as its Decodable conformance would from JSONDecoder.
public protocol JSONReadable {
    /// Reads one value, leaving the reader just after it.
    init(json: inout JSONReader) throws(JSONReadError)
}

extension String: JSONReadable {
    /// Reads a JSON string.
    public init(json: inout JSONReader) throws(JSONReadError) { self = try json.readString() }
}

extension Int: JSONReadable {
    /// Reads a JSON number that is an Int.
    public init(json: inout JSONReader) throws(JSONReadError) { self = try json.readInt() }
}

extension Double: JSONReadable {
    /// Reads a JSON number.
    public init(json: inout JSONReader) throws(JSONReadError) { self = try json.readDouble() }
}

extension Bool: JSONReadable {
    /// Reads `true` or `false`.
    public init(json: inout JSONReader) throws(JSONReadError) { self = try json.readBool() }
}

extension Optional: JSONReadable where Wrapped: JSONReadable {
    /// Reads `null` as nil, else the wrapped value.
    @inlinable
    public init(json: inout JSONReader) throws(JSONReadError) {
        self = try json.readNull() ? nil : try Wrapped(json: &json)
    }
}

extension Array: JSONReadable where Element: JSONReadable {
    /// Reads a JSON array of elements.
    @inlinable
    public init(json: inout JSONReader) throws(JSONReadError) {
        self = []
        guard try json.firstElement() else { return }
        repeat {
            append(try Element(json: &json))
        } while try json.nextElement()
    }
}

extension Dictionary: JSONReadable where Key == String, Value: JSONReadable {
    /// Reads a JSON object of values, refusing a repeated key (JSONDecoder keeps the first).
    @inlinable
    public init(json: inout JSONReader) throws(JSONReadError) {
        self = [:]
        var key = try json.firstKey()
        while let name = key {
            guard self[name] == nil else { throw json.error("a key repeated in an object") }
            self[name] = try Value(json: &json)
            key = try json.nextKey()
        }
    }
}

extension JSONReadable where Self: RawRepresentable, RawValue == String {
    /// Reads the raw value, refusing one that names no case, as JSONDecoder does.
    public init(json: inout JSONReader) throws(JSONReadError) {
        let start = json.offset
        guard let value = Self(rawValue: try json.readString()) else {
            throw JSONReadError(offset: start, reason: "not one of the values of \(Self.self)")
        }
        self = value
    }
}
