#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import NIOPosix
import SQLite
import Synchronization
import SystemPackage

/// The index's connections and the blocking operations on them: one writer connection and a
/// few read-only ones, each behind its own lock. Its public methods are the index's queries;
/// callers get it only inside `Store.read` and `Store.write`, whose closures run on the store's
/// own threads, so no Swift concurrency thread ever waits on SQLite.
///
/// Every write goes through `apply(_:)`, which commits the asset rows, the group counts and
/// the change-log row in one transaction, so a crash never leaves a change without its token
/// or a token without its change.
public final class StoreDatabase: Sendable {
    /// Where the database lives.
    let path: String
    let writer: Mutex<SQLiteConnection>
    /// One connection per reader thread; a read takes the first free one.
    let readers: [ReaderConnection]
    /// The write-ahead log's checkpoints, which the writer's commits leave to a reader thread.
    let checkpoints: LogCheckpoints
    /// The reserved lane's own connection (`StoreLane.reserved`): only its thread reads through
    /// it, so no query on the shared readers can make the owner or the watchdog wait.
    let reserved: ReaderConnection
    /// The connection of the reserved lane's thread while it runs a read; unset on every other thread.
    static let laneConnection = ThreadSpecificVariable<ReaderConnection>()
    /// Called with every committed change while the writer lock is still held, so observers
    /// see changes in token order whoever wrote them.
    let onCommit: @Sendable (CommittedChange) -> Void
    /// How much of the change log is kept.
    let changeLogLimits: ChangeLogLimits
    /// The change log's payload bytes, counted at the first write and kept up to date after;
    /// nil after a failed write, so it is counted again. Only touched with the writer held.
    let changeLogBytes = Mutex<Int64?>(nil)
    /// The writer's page limit when no size limit is set (SQLite's compiled-in maximum).
    let unlimitedPages: Int64
    /// What opening the index had to do: a damaged file moved aside, app records restored.
    let opening: OpeningReport
    /// Set while the room kept beside the index (`SpaceReserve`) is given up; the first write
    /// with room after makes it again.
    let reserveMissing: Atomic<Bool>

    /// Page cache bounds, in KiB: the index's working set (on 100,000 photos, the taken-order
    /// index, the rows a page shows and the search index's lists, a few MiB) with room to spare.
    /// A larger cache made searching and listing no faster (bench/README.md, "Figures behind the
    /// code"); the writer keeps more for the indexes a batch updates at random places.
    /// In all, SQLite caches at most 16 MiB.
    static let writerCacheKiB = 8192
    static let readerCacheKiB = 4096

    /// Opens or creates the index at `path` (folder 0700, file 0600) and migrates it. The change
    /// log keeps the newest `changeRetention` changes and at most `changeRetentionBytes` of
    /// payload; `onCommit` hears every committed change, in token order.
    ///
    /// An index that is empty or that SQLite cannot read is never silently replaced: it is moved
    /// aside (`index.sqlite.broken-<time>`), a fresh one takes its place, and the app records
    /// (the owner's permission decisions) come back from the backup beside it; `opening` says so.
    init(path: String, changeRetention: Int, changeRetentionBytes: Int, readerCount: Int,
         checkpointThreads: NIOThreadPool, onCommit: @escaping @Sendable (CommittedChange) -> Void) throws {
        self.path = path
        changeLogLimits = ChangeLogLimits(changes: changeRetention, bytes: changeRetentionBytes)
        self.onCommit = onCommit
        let opened = try StoreOpener(path: path).open()
        unlimitedPages = opened.unlimitedPages
        opening = opened.report
        reserveMissing = Atomic(opened.report.reserveReleased != nil)
        var readers: [ReaderConnection] = []
        for _ in 0..<max(1, readerCount) {
            readers.append(try Self.readerConnection(path: path))
        }
        reserved = try Self.readerConnection(path: path)
        checkpoints = try LogCheckpoints(path: path, threads: checkpointThreads)
        checkpoints.observe(opened.writer)
        writer = Mutex(opened.writer)
        self.readers = readers
    }

    /// A read-only connection to the index with a reader's page cache.
    private static func readerConnection(path: String) throws -> ReaderConnection {
        let connection = try SQLiteConnection(path: path, create: false)
        try connection.execute("PRAGMA query_only = 1")
        try connection.execute("PRAGMA cache_size = -\(Self.readerCacheKiB)")
        return ReaderConnection(connection)
    }

    /// Creates the index's folder (0700) when it does not exist.
    static func prepareFolder(of path: String) throws {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if !FileManager.default.fileExists(atPath: folder), let failed = DurableFile.createFolders(folder, mode: 0o700) {
            throw StoreError.cannotPrepare(path: path, reason: "cannot create \(folder): \(Errno(rawValue: failed))")
        }
    }

    /// Creates the folder (0700) and an empty file (0600) before SQLite does, so neither the
    /// database nor its -wal/-shm companions (which copy its mode) are ever readable by others.
    static func prepareFile(at path: String) throws {
        try prepareFolder(of: path)
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw StoreError.cannotPrepare(path: path, reason: Errno(rawValue: errno).description)
        }
        defer { close(fd) }
        guard fchmod(fd, 0o600) == 0 else {
            throw StoreError.cannotPrepare(path: path, reason: "chmod 0600: \(Errno(rawValue: errno))")
        }
    }

    /// Caps the index file at `bytes` (nil: no cap beyond the disk's). A write that would grow
    /// it past the cap fails as on a full disk, and the index stays as it was. A cap below the
    /// current size holds the index at its current size.
    public func limitSize(toBytes bytes: Int?) throws {
        try write { db in
            let pages: Int64
            if let bytes {
                let pageSize = try db.integer("PRAGMA page_size") ?? 4096
                pages = max(1, Int64(bytes) / pageSize)
            } else {
                pages = unlimitedPages
            }
            try db.execute("PRAGMA max_page_count = \(pages)")
        }
    }

    /// Writes the app records to the backup beside the index; called after every change to
    /// them, with the writer held. A backup that cannot be written (a full disk) is not an
    /// error of the change itself, which is committed: the next change or start writes it again.
    func backUpApps(_ db: SQLiteConnection) {
        try? AppsBackup.write(db, index: path)
    }

    /// A second write connection to the index, for one transaction while the writer waits for it
    /// (the copy that ends a first index, `BulkLoad`); closed when released.
    func copyConnection() throws -> SQLiteConnection {
        let connection = try SQLiteConnection(path: path, create: false)
        try connection.execute("PRAGMA synchronous = NORMAL; PRAGMA cache_size = -1024")
        return connection
    }

    /// Runs `body` on a free reader connection, leaving no statement (and no snapshot) open.
    /// There are as many connections as reader threads, so one is free unless a read nests
    /// another; then it waits for the first.
    /// On the reserved lane's thread the read takes that lane's own connection, never a shared one.
    func read<T: Sendable>(_ body: (inout sending SQLiteConnection) throws -> T) throws -> T {
        if let own = Self.laneConnection.currentValue {
            return try own.lock.withLock { db in
                defer { db.resetStatements() }
                return try body(&db)
            }
        }
        for reader in readers {
            let result: Result<T, any Error>? = reader.lock.withLockIfAvailable { db in
                defer { db.resetStatements() }
                do { return .success(try body(&db)) } catch { return .failure(error) }
            }
            if let result { return try result.get() }
        }
        return try readers[0].lock.withLock { db in
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

    /// Hands the memory of every connection's page cache back (`PRAGMA shrink_memory`; the caches
    /// fill again as queries need): after a large reconcile, whose pages the next queries do not
    /// need. A bulk load's end does it by itself.
    public func releaseMemory() {
        try? write { db in try db.execute("PRAGMA shrink_memory") }
        for reader in readers + [reserved] {
            reader.lock.withLock { db in try? db.execute("PRAGMA shrink_memory") }
        }
    }

    /// Marks every asset's stamp unknown, so the next reconcile reads every file again (ids kept):
    /// for when what reading a file yields has changed, such as the description sources.
    public func forgetReadStamps() throws {
        try write { db in
            try db.statement("UPDATE assets SET sidecar = -1").run()
        }
    }

    /// Marks these assets' stamps unknown, so the next reconcile reads their files again (ids
    /// kept), in one transaction; an empty list does not touch the writer connection.
    public func forgetReadStamps(ids: [String]) throws {
        guard !ids.isEmpty else { return }
        try write { db in
            let statement = try db.statement("UPDATE assets SET sidecar = -1 WHERE id = ?")
            for id in ids {
                statement.reset()
                try statement.bind([AssetEncoding.id(id)]).run()
            }
        }
    }
}

/// One read-only connection behind its own lock (a `Mutex` cannot sit in an array by itself).
final class ReaderConnection: Sendable {
    let lock: Mutex<SQLiteConnection>

    init(_ connection: consuming sending SQLiteConnection) {
        lock = Mutex(connection)
    }
}
