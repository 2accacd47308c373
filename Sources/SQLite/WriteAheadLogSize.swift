import CSQLite
import Synchronization

/// The size of a connection's write-ahead log in pages, as SQLite reports it after each commit
/// (`sqlite3_wal_hook`).
///
/// Observing it takes the place of SQLite's own checkpoint at commit (`wal_autocheckpoint`): the
/// committing connection then never copies the log back into the database itself, a copy and two
/// syncs that held a commit up for tens of milliseconds every thousand pages. Whoever observes
/// the size checkpoints on a connection of its own instead.
public final class WriteAheadLogSize: Sendable {
    private let pages = Atomic<Int>(0)
    private let onCommit: @Sendable (Int) -> Void

    /// Creates a size of zero pages; `onCommit` hears the log's size after each commit, on the
    /// committing thread once the commit's lock is released, so it must not wait.
    public init(onCommit: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.onCommit = onCommit
    }

    /// Pages in the log after the last commit of the observed connection.
    public var current: Int { pages.load(ordering: .relaxed) }

    fileprivate func record(_ count: Int32) {
        pages.store(Int(count), ordering: .relaxed)
        onCommit(Int(count))
    }
}

extension SQLiteConnection {
    /// Has `size` follow this connection's write-ahead log after each commit, and turns off the
    /// checkpoint SQLite would otherwise run inside the commit that crosses `wal_autocheckpoint`.
    /// The connection keeps `size` alive.
    public func observeWriteAheadLog(_ size: WriteAheadLogSize) {
        walSize = size
        sqlite3_wal_hook(handle, { context, _, _, pages in
            guard let context else { return SQLITE_OK }
            Unmanaged<WriteAheadLogSize>.fromOpaque(context).takeUnretainedValue().record(pages)
            return SQLITE_OK
        }, Unmanaged.passUnretained(size).toOpaque())
    }
}
