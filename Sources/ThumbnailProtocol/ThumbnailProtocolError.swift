/// Why bytes from the other side are not a valid frame; the connection cannot continue after one.
public enum ThumbnailProtocolError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The first four bytes are not the frame kind's magic.
    case badMagic([UInt8])
    /// The declared body length is outside what the frame kind allows.
    case badLength(declared: UInt64, allowed: ClosedRange<UInt64>)
    /// A field holds a value the protocol does not define.
    case badField(name: String, value: UInt64)

    /// A one-line explanation for logs.
    public var description: String {
        switch self {
        case .badMagic(let bytes):
            "bad frame magic \(bytes.map { String($0, radix: 16) }.joined(separator: " "))"
        case .badLength(let declared, let allowed):
            "bad length \(declared), allowed \(allowed.lowerBound)...\(allowed.upperBound)"
        case .badField(let name, let value):
            "bad value \(value) for \(name)"
        }
    }
}

/// Checks a field against its defined range, naming it in the error.
func check<T: BinaryInteger>(_ name: String, _ value: T, in range: ClosedRange<T>) throws(ThumbnailProtocolError) {
    guard range.contains(value) else { throw .badField(name: name, value: UInt64(value)) }
}
