import Dispatch
import Synchronization

/// Search text read and folded on another thread and connection, a few chunks ahead of the
/// writer that indexes it: at a bulk load's end the writer's share of the search text is then
/// the FTS insert alone, while a second core reads the rows and folds their text.
///
/// Holds at most `depth` chunks of `chunkSize` rows, however large the library. The producer
/// stops at the first empty chunk or error, or when the consumer calls `stop()`.
final class SearchTextFeed: Sendable {
    static let chunkSize = 1000

    private struct State {
        var chunks: [Result<[SearchIndex.Row], any Error>] = []
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
        // writer stops before taking every chunk the producer made room for.
        for _ in 0..<max(1, depth) { room.signal() }
    }

    /// Runs on the producer's thread: hands over `read(after, chunkSize)`, the rows numbered
    /// above `after` in order, chunk after chunk, until one is empty or fails.
    func produce(after number: Int64, read: (_ after: Int64, _ limit: Int) throws -> [SearchIndex.Row]) {
        var after = number
        while true {
            room.wait()
            if state.withLock({ $0.stopped }) { return }
            let result = Result { try read(after, Self.chunkSize) }
            hand(result)
            guard case .success(let rows) = result, let last = rows.last else { return }
            after = last.rowid
        }
    }

    /// Ends the feed with `error` when the producer could not run at all.
    func fail(_ error: any Error) { hand(.failure(error)) }

    /// The next chunk, waiting for it; empty at the end.
    func next() throws -> [SearchIndex.Row] {
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

    private func hand(_ result: Result<[SearchIndex.Row], any Error>) {
        state.withLock { $0.chunks.append(result) }
        filled.signal()
    }
}
