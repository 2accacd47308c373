import Dispatch
import Synchronization

/// Chunks of work made on one thread and taken in order on another, a few ahead at most: at a
/// bulk load's end, the search text read and folded on a second core for the writer to index
/// (`SearchTextFeed`), or a search index built on a second core for the writer to copy
/// (`SearchIndexBuild`).
///
/// Holds at most `depth` chunks, however large the library. An empty chunk ends the feed. The
/// producer stops at the end or at an error, or when the consumer calls `stop()`.
final class ChunkFeed<Element: Sendable>: Sendable {
    private struct State {
        var chunks: [Result<[Element], any Error>] = []
        var stopped = false
    }

    private let state = Mutex(State())
    /// Signalled once per chunk handed over.
    private let filled = DispatchSemaphore(value: 0)
    /// Room for chunks not taken yet.
    private let room = DispatchSemaphore(value: 0)

    init(depth: Int = 4) {
        // Signalled up to the depth rather than made with it: libdispatch stops the process when
        // a semaphore goes away below the value it was made with, as `room` does when the
        // consumer stops before taking every chunk the producer made room for.
        for _ in 0..<max(1, depth) { room.signal() }
    }

    /// Runs on the producer's thread: waits for room, then hands over `chunk` (empty: the end).
    /// False when the consumer has stopped, so the producer should too.
    func hand(_ chunk: () throws -> [Element]) -> Bool {
        room.wait()
        if state.withLock({ $0.stopped }) { return false }
        let result = Result { try chunk() }
        deliver(result)
        if case .success(let elements) = result, !elements.isEmpty { return true }
        return false
    }

    /// Ends the feed with `error` when the producer could not run at all.
    func fail(_ error: any Error) { deliver(.failure(error)) }

    /// The next chunk, waiting for it; empty at the end.
    func next() throws -> [Element] {
        filled.wait()
        let result = state.withLock { $0.chunks.removeFirst() }
        room.signal()
        return try result.get()
    }

    /// The consumer is done (or failed): a producer waiting for room wakes and returns.
    func stop() {
        state.withLock { $0.stopped = true }
        room.signal()
    }

    private func deliver(_ result: Result<[Element], any Error>) {
        state.withLock { $0.chunks.append(result) }
        filled.signal()
    }
}

/// The search text of the rows above a number, read and folded on another thread and
/// connection, a few chunks ahead of the writer that indexes it: the writer's share of the search
/// text is then the FTS insert alone.
typealias SearchTextFeed = ChunkFeed<SearchIndex.Row>

extension ChunkFeed where Element == SearchIndex.Row {
    static var chunkSize: Int { 1000 }

    /// Runs on the producer's thread: hands over `read(after, chunkSize)`, the rows numbered
    /// above `after` in order, chunk after chunk, until one is empty or fails.
    func produce(after number: Int64, read: @escaping (_ after: Int64, _ limit: Int) throws -> [SearchIndex.Row]) {
        let next = SearchIndex.pages(after: number, read: read)
        while hand(next) {}
    }
}
