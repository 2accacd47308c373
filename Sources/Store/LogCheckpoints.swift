import NIOPosix
import SQLite
import Synchronization

/// The checkpoints of the index's write-ahead log, off the writer's path.
///
/// SQLite checkpoints inside the commit that takes the log past `wal_autocheckpoint` pages: it
/// copies the log back into the database and syncs both, and a live change waiting behind that
/// commit reached its subscribers tens of milliseconds late, every fifty photos or so
/// (bench/run live, p99). The writer's connection reports the log's size instead
/// (`WriteAheadLogSize`) after every commit, whoever made it, and once it reaches `threshold`
/// one checkpoint at a time runs on a reader thread, on a connection of its own, while the
/// writer goes on committing.
final class LogCheckpoints: Sendable {
    /// Pages in the log that start a checkpoint: SQLite's own `wal_autocheckpoint`, so the log
    /// grows no larger than before.
    static let threshold = 1000

    /// Checkpoints that have run, for tests.
    let finished = Atomic(0)
    private let connection: Mutex<SQLiteConnection>
    private let threads: NIOThreadPool
    private let running = Atomic(false)

    /// Checkpoints of the index at `path`, through a connection opened now, run on `threads`.
    init(path: String, threads: NIOThreadPool) throws {
        let connection = try SQLiteConnection(path: path, create: false)
        try connection.execute("PRAGMA cache_size = -256")
        self.connection = Mutex(connection)
        self.threads = threads
    }

    /// Has the writer's connection report its log to these checkpoints after each commit.
    func observe(_ writer: SQLiteConnection) {
        writer.observeWriteAheadLog(WriteAheadLogSize { [weak self] pages in self?.committed(pages: pages) })
    }

    /// Called on the writer thread after each commit: starts a checkpoint when the log has
    /// reached `threshold` pages and none is running. A passive checkpoint copies what no reader
    /// still needs and never waits for a reader or the writer.
    private func committed(pages: Int) {
        guard pages >= Self.threshold,
              running.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else { return }
        threads.submit { [self] state in
            defer { running.store(false, ordering: .releasing) }
            guard case .active = state else { return }
            // A checkpoint that fails (a full disk) leaves the log as it was; the next write tries again.
            connection.withLock { db in _ = try? db.execute("PRAGMA wal_checkpoint(PASSIVE)") }
            finished.add(1, ordering: .relaxed)
        }
    }
}
