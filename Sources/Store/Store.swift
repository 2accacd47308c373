import Foundation
import SQLite
import Synchronization

/// The library index: SQLite in WAL mode with one writer connection and one reader connection.
///
/// Every write goes through `apply(_:)`, which commits the asset rows, the group counts and
/// the change-log row in one transaction, so a crash never leaves a change without its token
/// or a token without its change.
public final class Store: Sendable {
    /// Where the database lives.
    public let path: String
    let writer: Mutex<SQLiteConnection>
    let reader: Mutex<SQLiteConnection>
    /// Called with every committed change while the writer lock is still held, so observers
    /// see changes in token order whoever wrote them.
    let onCommit: @Sendable (CommittedChange) -> Void
    /// How many of the newest changes the log keeps.
    let changeRetention: Int

    /// Opens or creates the index at `path` (folder 0700, file 0600) and migrates it. The change
    /// log keeps the newest `changeRetention` changes; `onCommit` hears every committed change,
    /// in token order.
    public init(path: String, changeRetention: Int = 10_000,
                onCommit: @escaping @Sendable (CommittedChange) -> Void = { _ in }) throws {
        self.path = path
        self.changeRetention = max(1, changeRetention)
        self.onCommit = onCommit
        try Self.prepareFile(at: path)
        let writeConnection = try SQLiteConnection(path: path, create: true)
        try writeConnection.execute("PRAGMA journal_mode = WAL")
        try writeConnection.execute("PRAGMA synchronous = NORMAL")
        try writeConnection.execute("PRAGMA temp_store = MEMORY")
        try writeConnection.execute("PRAGMA cache_size = -16384")
        try Schema.migrate(writeConnection)
        let readConnection = try SQLiteConnection(path: path, create: false)
        try readConnection.execute("PRAGMA query_only = 1")
        writer = Mutex(writeConnection)
        reader = Mutex(readConnection)
    }

    /// Creates the folder (0700) and an empty file (0600) before SQLite does, so neither the
    /// database nor its -wal/-shm companions (which copy its mode) are ever readable by others.
    private static func prepareFile(at path: String) throws {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        do {
            if !FileManager.default.fileExists(atPath: folder) {
                try FileManager.default.createDirectory(
                    atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            }
        } catch {
            throw StoreError.cannotPrepare(path: path, reason: "cannot create \(folder): \(error.localizedDescription)")
        }
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw StoreError.cannotPrepare(path: path, reason: String(cString: strerror(errno)))
        }
        defer { close(fd) }
        guard fchmod(fd, 0o600) == 0 else {
            throw StoreError.cannotPrepare(path: path, reason: "chmod 0600: " + String(cString: strerror(errno)))
        }
    }

    /// Runs `body` on the reader connection, leaving no statement (and no snapshot) open.
    func read<T: Sendable>(_ body: (inout sending SQLiteConnection) throws -> T) throws -> T {
        try reader.withLock { db in
            defer { db.resetStatements() }
            return try body(&db)
        }
    }

    /// Runs `body` on the writer connection, leaving no statement open.
    func write<T: Sendable>(_ body: (inout sending SQLiteConnection) throws -> T) throws -> T {
        try writer.withLock { db in
            defer { db.resetStatements() }
            return try body(&db)
        }
    }

    /// A setting remembered in the index (for example, the grouping rules it was built with).
    public func setting(_ key: String) throws -> String? {
        try read { db in
            let statement = try db.statement("SELECT value FROM settings WHERE key = ?")
            try statement.bind([.text(key)])
            return try statement.step() ? statement.text(0) : nil
        }
    }

    /// Remembers a setting.
    public func setSetting(_ key: String, to value: String) throws {
        try write { db in
            let statement = try db.statement(
                "INSERT INTO settings(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value")
            try statement.bind([.text(key), .text(value)]).run()
        }
    }

    /// Marks every asset's stamp unknown, so the next reconcile reads every file again (ids kept):
    /// for when what reading a file yields has changed, such as the description sources.
    public func forgetReadStamps() throws {
        try write { db in
            try db.statement("UPDATE assets SET sidecar = -1").run()
        }
    }
}
