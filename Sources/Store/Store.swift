import NIOPosix
import SQLite

/// The library index: SQLite in WAL mode, with threads of its own — one writer and a few
/// readers — the way sqlite-nio owns its thread pool.
///
/// Every method is `async` and runs on those threads, so no caller can block one of Swift's
/// concurrency threads on SQLite by mistake. Writes run one at a time, in the order they were
/// called: each method submits its work before its first suspension (`nonisolated(nonsending)`),
/// so two writes from one actor or task reach the index in program order.
public final class Store: Sendable {
    /// Where the database lives.
    public let path: String
    /// What opening the index had to do: a damaged file moved aside, app records restored.
    public let opening: OpeningReport
    let database: StoreDatabase
    private let writerThread: NIOThreadPool
    private let readerThreads: NIOThreadPool

    /// The reader threads (and connections): enough that a query never waits behind another
    /// while the scanner reads; each connection costs its page cache.
    public static let readerCount = 2

    /// Opens or creates the index at `path` (folder 0700, file 0600) and migrates it. The change
    /// log keeps the newest `changeRetention` changes and at most `changeRetentionBytes` of
    /// payload; `onCommit` hears every committed change, in token order, on the writer thread.
    ///
    /// An index that is empty or that SQLite cannot read is never silently replaced: it is moved
    /// aside (`index.sqlite.broken-<time>`), a fresh one takes its place, and the app records
    /// (the owner's permission decisions) come back from the backup beside it; `opening` says so.
    public init(path: String, changeRetention: Int = ChangeLogLimits.standard.changes,
                changeRetentionBytes: Int = ChangeLogLimits.standard.bytes,
                onCommit: @escaping @Sendable (CommittedChange) -> Void = { _ in }) throws {
        database = try StoreDatabase(
            path: path, changeRetention: changeRetention, changeRetentionBytes: changeRetentionBytes,
            readerCount: Self.readerCount, onCommit: onCommit)
        self.path = path
        opening = database.opening
        writerThread = NIOThreadPool(numberOfThreads: 1)
        readerThreads = NIOThreadPool(numberOfThreads: Self.readerCount)
        writerThread.start()
        readerThreads.start()
    }

    deinit {
        // Pending work holds the store, so nothing is queued by now; stopping needs no waiting.
        writerThread.shutdownGracefully { _ in }
        readerThreads.shutdownGracefully { _ in }
    }

    /// Stops the store's threads after the work already submitted; later calls throw.
    public func close() async {
        try? await writerThread.shutdownGracefully()
        try? await readerThreads.shutdownGracefully()
    }

    /// Runs `body` on a reader thread.
    nonisolated(nonsending) func onReader<T: Sendable>(
        _ body: @escaping @Sendable (StoreDatabase) throws -> T
    ) async throws -> T {
        try await Self.run(body, database: database, on: readerThreads)
    }

    /// Runs `body` on the writer thread, after every write submitted before it.
    nonisolated(nonsending) func onWriter<T: Sendable>(
        _ body: @escaping @Sendable (StoreDatabase) throws -> T
    ) async throws -> T {
        try await Self.run(body, database: database, on: writerThread)
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
        readerThreads.submit { [database] state in
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
        readerThreads.submit { [database] state in
            guard case .active = state else { return feed.fail(StoreError.closed) }
            SearchIndexBuild.build(into: feed, after: number, read: Self.searchRows(database))
        }
        return feed
    }

    /// Queues `body` on the writer thread and returns at once; `completion` hears the outcome
    /// there. For an actor that must keep its writes in program order without suspending.
    func enqueueWrite(_ body: @escaping @Sendable (StoreDatabase) throws -> Void,
                      completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        writerThread.submit { [database] state in
            guard case .active = state else {
                completion(.failure(StoreError.closed))
                return
            }
            completion(Result { try body(database) })
        }
    }

    /// Returns once every write queued or called before this call has finished.
    nonisolated(nonsending) public func settled() async throws {
        try await onWriter { _ in }
    }
}
