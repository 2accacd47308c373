/// Failures of the store beyond SQLite's own errors.
public enum StoreError: Error, CustomStringConvertible, Sendable {
    /// The database was written by a newer photod.
    case newerSchema(found: Int, supported: Int)
    /// The database file or its folder could not be prepared.
    case cannotPrepare(path: String, reason: String)

    public var description: String {
        switch self {
        case .newerSchema(let found, let supported):
            return "the index has schema version \(found), newer than this photod supports (\(supported)); "
                + "upgrade photod or move the index aside"
        case .cannotPrepare(let path, let reason):
            return "cannot prepare the index at \(path): \(reason)"
        }
    }
}
