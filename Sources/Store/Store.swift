import NIOPosix
import SQLite

/// The library index: SQLite in WAL mode, with threads of its own — one writer and a few
/// readers — the way sqlite-nio owns its thread pool.
///
/// The one way in is GRDB's shape: `try await store.read { try $0.groups() }` runs the queries
/// of the closure on a reader thread, `try await store.write { try $0.apply(batch) }` on the
/// writer; the closure is handed the index (`StoreDatabase`), whose methods are the queries. So
/// no caller can block one of Swift's concurrency threads on SQLite by mistake, and a call's
/// queries take one trip to a thread. Writes run one at a time, in the order they were called:
/// `write` submits its work before its first suspension (`nonisolated(nonsending)`), so two
/// writes from one actor or task reach the index in program order.
public final class Store: Sendable {
    /// Where the database lives.
    public let path: String
    /// What opening the index had to do: a damaged file moved aside, app records restored.
    public let opening: OpeningReport
    /// The reader lane this view's reads run on (`lane(_:)`); writes share the one writer.
    public let lane: StoreLane
    /// Most photos one search page examines (`SearchPage.stopped`).
    public let searchRowBudget: Int
    let database: StoreDatabase
    private let threads: StoreThreads

    /// The reader threads (and connections) of the shared lane: enough that a query never
    /// waits behind another while the scanner reads; each connection costs its page cache. The
    /// reserved lane adds one thread and connection of its own.
    public static let readerCount = 2

    /// Opens or creates the index at `path` (folder 0700, file 0600) and migrates it. The change
    /// log keeps the newest `changeRetention` changes and at most `changeRetentionBytes` of
    /// payload; `onCommit` hears every committed change, in token order, on the writer thread.
    /// A search page examines at most `searchRowBudget` photos.
    ///
    /// An index that is empty or that SQLite cannot read is never silently replaced: it is moved
    /// aside (`index.sqlite.broken-<time>`), a fresh one takes its place, and the app records
    /// (the owner's permission decisions) come back from the backup beside it; `opening` says so.
    public init(path: String, changeRetention: Int = ChangeLogLimits.standard.changes,
                changeRetentionBytes: Int = ChangeLogLimits.standard.bytes,
                searchRowBudget: Int = SearchPage.standardRowBudget,
                onCommit: @escaping @Sendable (CommittedChange) -> Void = { _ in }) throws {
        threads = StoreThreads(readerCount: Self.readerCount)
        database = try StoreDatabase(
            path: path, changeRetention: changeRetention, changeRetentionBytes: changeRetentionBytes,
            readerCount: Self.readerCount, checkpointThreads: threads.readers, onCommit: onCommit)
        self.path = path
        opening = database.opening
        lane = .shared
        self.searchRowBudget = max(1, searchRowBudget)
    }

    private init(_ store: Store, lane: StoreLane) {
        path = store.path
        opening = store.opening
        database = store.database
        threads = store.threads
        searchRowBudget = store.searchRowBudget
        self.lane = lane
    }

    /// The same store whose reads run on `lane`: `.reserved` for the owner's calls and the
    /// watchdog, so that no app's queries, however many or costly, can hold them up.
    public func lane(_ lane: StoreLane) -> Store {
        lane == self.lane ? self : Store(self, lane: lane)
    }

    /// Stops the store's threads after the work already submitted; later calls throw.
    public func close() async {
        await threads.close()
    }

    /// Runs `body` on a reader thread of this view's lane, with the index to query.
    nonisolated(nonsending) public func read<T: Sendable>(
        _ body: @escaping @Sendable (StoreDatabase) throws -> T
    ) async throws -> T {
        switch lane {
        case .shared:
            return try await Self.run({ database in
                SharedReaderPriority.applyToCurrentThread()
                return try body(database)
            }, database: database, on: threads.readers)
        case .reserved:
            return try await Self.run({ [reserved = database.reserved] database in
                // Every read on this thread goes through the lane's own connection (`StoreDatabase.read`).
                StoreDatabase.laneConnection.currentValue = reserved
                defer { StoreDatabase.laneConnection.currentValue = nil }
                return try body(database)
            }, database: database, on: threads.reserved)
        }
    }

    /// Runs `body` on the writer thread, after every write submitted before it; a write's result
    /// (the committed change, whether a record was there) is often of no use to the caller.
    @discardableResult
    nonisolated(nonsending) public func write<T: Sendable>(
        _ body: @escaping @Sendable (StoreDatabase) throws -> T
    ) async throws -> T {
        try await Self.run(body, database: database, on: threads.writer)
    }

    /// Submits `body` before suspending, so submission order is call order.
    private nonisolated(nonsending) static func run<T: Sendable>(
        _ body: @escaping @Sendable (StoreDatabase) throws -> T, database: StoreDatabase, on threads: NIOThreadPool
    ) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            threads.submit { state in
                guard case .active = state else {
                    continuation.resume(throwing: StoreError.closed)
                    return
                }
                continuation.resume(with: Result { try body(database) })
            }
        }
    }

    /// A feed of the search text of the assets numbered above `number`, read on a reader thread
    /// and connection (`SearchTextFeed`), for the writer to index.
    func searchTextFeed(above number: Int64) -> SearchTextFeed {
        let feed = SearchTextFeed()
        threads.readers.submit { [database] state in
            guard case .active = state else { return feed.fail(StoreError.closed) }
            feed.produce(after: number, read: Self.searchRows(database))
        }
        return feed
    }

    /// Reads `limit` assets' search text above a number through a reader connection.
    private static func searchRows(_ database: StoreDatabase) -> (_ after: Int64, _ limit: Int) throws -> [SearchIndex.Row] {
        { after, limit in try database.read { try SearchIndex.rows($0, after: after, limit: limit) } }
    }

    /// Starts building, on a reader thread, the search index of the rows above `number` in a
    /// scratch database of its own (`SearchIndexBuild`), for the writer to copy.
    func searchIndexBuild(above number: Int64) -> SearchIndexBuild.Feed {
        let feed = SearchIndexBuild.Feed()
        threads.readers.submit { [database] state in
            guard case .active = state else { return feed.fail(StoreError.closed) }
            SearchIndexBuild.build(into: feed, after: number, read: Self.searchRows(database))
        }
        return feed
    }

    /// Queues `body` on the writer thread and returns at once; `completion` hears the outcome
    /// there. For an actor that must keep its writes in program order without suspending.
    func enqueueWrite(_ body: @escaping @Sendable (StoreDatabase) throws -> Void,
                      completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        threads.writer.submit { [database] state in
            guard case .active = state else {
                completion(.failure(StoreError.closed))
                return
            }
            completion(Result { try body(database) })
        }
    }

    /// Returns once every write queued or called before this call has finished.
    nonisolated(nonsending) public func settled() async throws {
        try await write { _ in }
    }
}

/// Which reader thread and connection a store's reads run on.
public enum StoreLane: Sendable, Equatable {
    /// The shared readers: apps' calls, the scanner, search-index builds.
    case shared
    /// One thread and connection that only the owner's calls and the watchdog use.
    case reserved
}

/// The store's threads, shared by its lane views and stopped when the last one goes.
private final class StoreThreads: Sendable {
    let writer = NIOThreadPool(numberOfThreads: 1)
    let readers: NIOThreadPool
    let reserved = NIOThreadPool(numberOfThreads: 1)

    init(readerCount: Int) {
        readers = NIOThreadPool(numberOfThreads: readerCount)
        writer.start()
        readers.start()
        reserved.start()
    }

    deinit {
        // Pending work holds the store, so nothing is queued by now; stopping needs no waiting.
        writer.shutdownGracefully { _ in }
        readers.shutdownGracefully { _ in }
        reserved.shutdownGracefully { _ in }
    }

    func close() async {
        try? await writer.shutdownGracefully()
        try? await readers.shutdownGracefully()
        try? await reserved.shutdownGracefully()
    }
}
