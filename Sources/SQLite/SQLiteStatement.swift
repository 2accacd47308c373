import CSQLite

/// A prepared statement: bind parameters, step through rows, read columns.
public final class SQLiteStatement {
    let raw: OpaquePointer
    private unowned let connection: SQLiteConnection
    /// Result column positions by name, read on the first `column(named:)`.
    private var columnIndices: [String: Int32]?

    init(raw: OpaquePointer, connection: SQLiteConnection) {
        self.raw = raw
        self.connection = connection
    }

    deinit { sqlite3_finalize(raw) }

    /// Resets the statement so it can run again, clearing its bindings.
    public func reset() {
        sqlite3_reset(raw)
        sqlite3_clear_bindings(raw)
    }

    /// Binds `values` to parameters 1, 2, ….
    @discardableResult
    public func bind(_ values: [SQLiteValue]) throws(SQLiteError) -> SQLiteStatement {
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
        return self
    }

    /// Binds one value to the 1-based parameter `index`.
    public func bind(_ value: SQLiteValue, at index: Int32) throws(SQLiteError) {
        let rc: Int32
        switch value {
        case .null:
            rc = sqlite3_bind_null(raw, index)
        case .integer(let number):
            rc = sqlite3_bind_int64(raw, index, number)
        case .text(let string):
            rc = sqlite3_bind_text(raw, index, string, -1, csqlite_transient())
        case .blob(let bytes):
            rc = bytes.withUnsafeBytes { buffer in
                // A zero-length blob must still bind as a blob, not as NULL.
                sqlite3_bind_blob64(raw, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1),
                                    sqlite3_uint64(buffer.count), csqlite_transient())
            }
        }
        guard rc == SQLITE_OK else { throw SQLiteError(code: rc, message: connection.lastErrorMessage) }
    }

    /// Advances to the next row; false when the statement is done.
    public func step() throws(SQLiteError) -> Bool {
        let rc = sqlite3_step(raw)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = SQLiteError(code: sqlite3_extended_errcode(sqlite3_db_handle(raw)),
                                    message: connection.lastErrorMessage)
            sqlite3_reset(raw)
            throw error
        }
    }

    /// Runs a statement that returns no rows.
    public func run() throws(SQLiteError) {
        while try step() {}
    }

    /// True when column `index` of the current row is NULL.
    public func isNull(_ index: Int32) -> Bool { sqlite3_column_type(raw, index) == SQLITE_NULL }

    /// True when column `index` of the current row is an integer.
    public func isInteger(_ index: Int32) -> Bool { sqlite3_column_type(raw, index) == SQLITE_INTEGER }

    /// True when column `index` of the current row is a blob.
    public func isBlob(_ index: Int32) -> Bool { sqlite3_column_type(raw, index) == SQLITE_BLOB }

    /// Column `index` as an integer.
    public func int64(_ index: Int32) -> Int64 { sqlite3_column_int64(raw, index) }

    /// Column `index` as an Int, nil when NULL.
    public func optionalInt(_ index: Int32) -> Int? { isNull(index) ? nil : Int(sqlite3_column_int64(raw, index)) }

    /// Column `index` as text, nil when NULL.
    public func text(_ index: Int32) -> String? {
        guard let pointer = sqlite3_column_text(raw, index) else { return nil }
        let count = Int(sqlite3_column_bytes(raw, index))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// Number of columns in a result row.
    public var columnCount: Int32 { sqlite3_column_count(raw) }

    /// The name of result column `index`.
    public func columnName(_ index: Int32) -> String {
        sqlite3_column_name(raw, index).map { String(cString: $0) } ?? ""
    }

    /// The position of the result column SQLite calls `name` (the column's own name, or its
    /// `AS` alias; the first, if two share it). The names are read once per prepared statement,
    /// which the connection caches, so a query pays a dictionary lookup, never a scan per row.
    public func column(named name: String) throws(SQLiteError) -> Int32 {
        let indices = columnIndices ?? readColumnIndices()
        guard let index = indices[name] else {
            let sql = sqlite3_sql(raw).map { String(cString: $0) } ?? "?"
            throw SQLiteError(code: SQLITE_RANGE, message: "the query has no column \(name): \(sql)")
        }
        return index
    }

    private func readColumnIndices() -> [String: Int32] {
        var indices: [String: Int32] = [:]
        for index in 0..<sqlite3_column_count(raw) where indices[columnName(index)] == nil {
            indices[columnName(index)] = index
        }
        columnIndices = indices
        return indices
    }

    /// Column `index` as the value SQLite stored, keeping its type (a REAL reads as its text).
    public func value(_ index: Int32) -> SQLiteValue {
        switch sqlite3_column_type(raw, index) {
        case SQLITE_NULL: return .null
        case SQLITE_INTEGER: return .integer(int64(index))
        case SQLITE_BLOB: return .blob(blob(index))
        default: return .text(text(index) ?? "")
        }
    }

    /// Column `index` as bytes (an empty array for NULL or an empty blob).
    public func blob(_ index: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(raw, index))
        guard count > 0, let pointer = sqlite3_column_blob(raw, index) else { return [] }
        return [UInt8](UnsafeRawBufferPointer(start: pointer, count: count))
    }
}
