import CSQLite

/// One SQLite connection with a cache of prepared statements.
///
/// Not thread-safe: the owner serializes access (the Store keeps each connection behind a mutex).
public final class SQLiteConnection {
    let handle: OpaquePointer
    private var statements: [String: SQLiteStatement] = [:]
    /// What `observeWriteAheadLog` reports to; held here because SQLite holds only its address.
    var walSize: WriteAheadLogSize?

    /// Opens (creating when `create` is true) the database at `path`.
    public init(path: String, create: Bool, readOnly: Bool = false) throws(SQLiteError) {
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        flags |= readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
        if create { flags |= SQLITE_OPEN_CREATE }
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(db)
            throw SQLiteError(code: rc, message: "\(path): \(message)")
        }
        handle = db
        sqlite3_busy_timeout(db, 5_000)
    }

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements that return no rows.
    public func execute(_ sql: String) throws(SQLiteError) {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        guard rc == SQLITE_OK else {
            let message = errorMessage.map { String(cString: $0) } ?? lastErrorMessage
            sqlite3_free(errorMessage)
            throw SQLiteError(code: rc, message: message)
        }
    }

    /// Returns the cached prepared statement for `sql`, reset and with bindings cleared.
    public func statement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let cached = statements[sql] {
            cached.reset()
            return cached
        }
        var raw: OpaquePointer?
        let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &raw, nil)
        guard rc == SQLITE_OK, let raw else {
            throw SQLiteError(code: rc, message: "\(lastErrorMessage) in: \(sql)")
        }
        let statement = SQLiteStatement(raw: raw, connection: self)
        statements[sql] = statement
        return statement
    }

    /// Resets every cached statement. A SELECT stopped before its last row keeps its read
    /// transaction, and with it an old WAL snapshot, open: callers reset when they are done.
    public func resetStatements() {
        for statement in statements.values { statement.reset() }
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    public func transaction<T>(immediate: Bool = true, _ body: () throws -> T) throws -> T {
        try execute(immediate ? "BEGIN IMMEDIATE" : "BEGIN")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Runs `body` asking `stop` every `instructions` virtual-machine steps; once it says true,
    /// the statement under way ends with `SQLITE_INTERRUPT`, even in the middle of one long step
    /// (a sort, a full-text merge) that no check between rows would reach.
    public func interruptible<T>(when stop: @escaping () -> Bool, every instructions: Int32 = 10_000,
                                 _ body: () throws -> T) throws -> T {
        let check = Unmanaged.passRetained(StopCheck(stop))
        sqlite3_progress_handler(handle, instructions, { context in
            guard let context else { return 0 }
            return Unmanaged<StopCheck>.fromOpaque(context).takeUnretainedValue().stop() ? 1 : 0
        }, check.toOpaque())
        defer {
            sqlite3_progress_handler(handle, 0, nil, nil)
            check.release()
        }
        return try body()
    }

    /// The integer in the first column of the first row of `sql` (a pragma such as
    /// `PRAGMA page_count`), nil when it returns no row or NULL.
    public func integer(_ sql: String) throws(SQLiteError) -> Int64? {
        let statement = try statement(sql)
        defer { statement.reset() }
        guard try statement.step(), !statement.isNull(0) else { return nil }
        return statement.int64(0)
    }

    /// The number of rows the last statement changed.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// The rowid of the last inserted row.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    var lastErrorMessage: String { String(cString: sqlite3_errmsg(handle)) }
}

/// The closure a progress handler asks, kept alive while the handler is installed.
private final class StopCheck {
    let stop: () -> Bool

    init(_ stop: @escaping () -> Bool) {
        self.stop = stop
    }
}
