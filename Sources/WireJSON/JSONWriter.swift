/// Builds JSON text as JSONWire's JSONEncoder writes it (sorted keys, slashes not escaped), for
/// wire types that write themselves (`JSONWritable`): a call's parameters without JSONEncoder,
/// whose first use in a process costs more than a short command's whole reply.
public struct JSONWriter {
    /// The text so far.
    public private(set) var bytes: [UInt8] = []

    /// An empty text.
    public init() {}

    /// Opens an object.
    public mutating func beginObject() {
        bytes.append(UInt8(ascii: "{"))
    }

    /// Closes the object.
    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
    }

    /// Opens an array.
    public mutating func beginArray() {
        bytes.append(UInt8(ascii: "["))
    }

    /// Closes the array.
    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
    }

    /// Starts a member or element: a comma unless it is its container's first.
    public mutating func separate() {
        if let last = bytes.last, last != UInt8(ascii: "{"), last != UInt8(ascii: "[") {
            bytes.append(UInt8(ascii: ","))
        }
    }

    /// Writes `key` and `value` as the object's next member.
    @inlinable
    public mutating func member<T: JSONWritable>(_ key: String, _ value: T) throws(JSONWriteError) {
        self.key(key)
        try value.write(json: &self)
    }

    /// Starts the object's next member: its key and colon.
    public mutating func key(_ key: String) {
        separate()
        string(key)
        bytes.append(UInt8(ascii: ":"))
    }

    /// Writes `key` and `value` as the next member when there is a value; an absent optional is
    /// left out, as the synthesized Encodable leaves it out.
    @inlinable
    public mutating func memberIfPresent<T: JSONWritable>(_ key: String, _ value: T?) throws(JSONWriteError) {
        guard let value else { return }
        try member(key, value)
    }

    /// `null`.
    public mutating func null() {
        bytes += [UInt8(ascii: "n"), UInt8(ascii: "u"), UInt8(ascii: "l"), UInt8(ascii: "l")]
    }

    /// `true` or `false`.
    public mutating func bool(_ value: Bool) {
        bytes += Array((value ? "true" : "false").utf8)
    }

    /// An integer in decimal.
    public mutating func int(_ value: Int) {
        bytes += Array(String(value).utf8)
    }

    /// A number as JSONEncoder writes it (Swift's shortest form, without a trailing `.0`); NaN
    /// and the infinities have no JSON form, and are refused as JSONEncoder refuses them.
    public mutating func double(_ value: Double) throws(JSONWriteError) {
        guard value.isFinite else { throw JSONWriteError(reason: "\(value) has no JSON form") }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes += Array(text.utf8)
    }

    /// A string, escaped as JSONEncoder escapes it: `"` and `\`, the controls `\b \t \n \f \r`
    /// by letter and the others as `\u00xx`; everything else (`/`, DEL, U+2028) as it is.
    public mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                bytes += [UInt8(ascii: "\\"), byte]
            case 0x08: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x09: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x0A: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0C: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0x0D: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

/// Why a value could not be written as JSON.
public struct JSONWriteError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What could not be written.
    public let reason: String

    /// The reason in words.
    public var description: String { "cannot write JSON: \(reason)" }
}
