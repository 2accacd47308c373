/// An error reported by SQLite, with its result code and message.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// The primary SQLite result code (`SQLITE_*`).
    public let code: Int32
    /// SQLite's message for the failure.
    public let message: String

    /// Creates an error value.
    public init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    /// True for a UNIQUE, NOT NULL or other constraint violation.
    public var isConstraintViolation: Bool { code & 0xFF == 19 }

    public var description: String { "SQLite error \(code): \(message)" }
}
