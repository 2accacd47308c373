/// A value bound to a statement parameter.
public enum SQLiteValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case text(String)
    case blob([UInt8])
}

extension SQLiteValue {
    /// An integer, or null for nil.
    public static func integer(_ value: Int?) -> SQLiteValue {
        value.map { .integer(Int64($0)) } ?? .null
    }

    /// A text value, or null for nil.
    public static func text(_ value: String?) -> SQLiteValue {
        value.map { .text($0) } ?? .null
    }
}
