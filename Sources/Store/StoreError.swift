import SQLite

/// Failures of the store beyond SQLite's own errors.
public enum StoreError: Error, CustomStringConvertible, Sendable {
    /// The database was written by a newer photod.
    case newerSchema(found: Int, supported: Int)
    /// The database file or its folder could not be prepared.
    case cannotPrepare(path: String, reason: String)
    /// A file beside the index (the apps backup) could not be written.
    case cannotWrite(path: String, reason: String)
    /// The apps backup cannot be read back.
    case badBackup(path: String, reason: String)
    /// Another process holds the index's lock.
    case inUse(path: String, pid: Int32?)
    /// The store was closed (photod is stopping); nothing was read or written.
    case closed

    public var description: String {
        switch self {
        case .newerSchema(let found, let supported):
            return "the index has schema version \(found), newer than this photod supports (\(supported)); "
                + "upgrade photod or move the index aside"
        case .cannotPrepare(let path, let reason):
            return "cannot prepare the index at \(path): \(reason)"
        case .cannotWrite(let path, let reason):
            return "cannot write \(path): \(reason)"
        case .badBackup(let path, let reason):
            return "cannot restore the app records from \(path): \(reason)"
        case .inUse(let path, let pid):
            let holder = pid.map { "photod pid \($0)" } ?? "another photod"
            return "index \(path) is in use by \(holder); stop it first, or give this one another --database"
        case .closed:
            return "the index is closed: photod is stopping"
        }
    }
}

extension Store {
    /// SQLite's reason when `error` is a write that failed for want of room — a full disk, a
    /// quota, or the size limit set with `StoreDatabase.limitSize(toBytes:)` — and nil for any other failure.
    /// Such a write changed nothing, and the same write succeeds once there is room.
    public static func outOfSpaceReason(_ error: any Error) -> String? {
        guard let error = error as? SQLiteError, error.isOutOfSpace else { return nil }
        return error.message
    }
}
