/// The most UTF-8 bytes one string field (or each string of an array field) of `Value` may hold,
/// as the IDL's `@limit` line declares it; the generated types list theirs in `byteLimits`.
///
/// Bytes, not characters: one grapheme cluster can be any number of bytes (a base letter with
/// thousands of combining marks), so a character count bounds nothing. photod refuses a longer
/// string with `InvalidParameter` naming the field, never cutting it short: a truncated reason or
/// group name would say something other than what was sent.
public struct ByteLimit<Value>: Sendable {
    /// The field's wire name, which `InvalidParameter` names.
    public let field: String
    /// The most bytes each of its strings may hold.
    public let maximum: Int
    private let strings: @Sendable (Value) -> [String]

    /// The limit of `field`, whose strings `strings` lists.
    public init(_ field: String, atMost maximum: Int, _ strings: @escaping @Sendable (Value) -> [String]) {
        self.field = field
        self.maximum = maximum
        self.strings = strings
    }

    /// Whether any of the field's strings in `value` is longer than the limit.
    public func isExceeded(by value: Value) -> Bool {
        strings(value).contains { $0.utf8.count > maximum }
    }
}

/// A generated parameter type whose IDL limits the bytes of some of its strings.
public protocol ByteLimited {
    /// Its limits, in field order.
    static var byteLimits: [ByteLimit<Self>] { get }
}

extension ByteLimited {
    /// The first field (in IDL order) holding a string over its limit; nil when all fit.
    public func fieldOverByteLimit() -> String? {
        Self.byteLimits.first { $0.isExceeded(by: self) }?.field
    }
}
