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

    /// True when the write failed for want of room: SQLITE_FULL (a full disk, or the size limit
    /// `PRAGMA max_page_count` sets) or SQLITE_IOERR (ENOSPC and quota errors arrive as I/O errors).
    /// Such a failure passes when space returns; the database itself is intact.
    public var isOutOfSpace: Bool { code & 0xFF == 13 || code & 0xFF == 10 }

    /// True when the file is not a database or its structure is damaged (SQLITE_NOTADB, SQLITE_CORRUPT).
    public var isDamagedDatabase: Bool { code & 0xFF == 26 || code & 0xFF == 11 }

    /// True when a progress handler stopped the statement (SQLITE_INTERRUPT).
    public var isInterrupted: Bool { code & 0xFF == 9 }

    public var description: String { "SQLite error \(code): \(message)" }
}
