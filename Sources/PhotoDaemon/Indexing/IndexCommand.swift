import FileSystem
import Synchronization
import Watcher

/// One thing the indexer is asked to do. Every change to the index goes through one queue of
/// these, consumed by one loop (`IndexerService`), so writes never interleave and their order
/// is the order they were asked for.
enum IndexCommand: Sendable {
    /// Reconcile `only` that root, or every root.
    case reconcile(only: LibraryRoot?, reason: String, reply: IndexReply<ScanReport>)
    /// Reconcile folders inotify cannot watch, each with its subtree.
    case reconcileFolders([PathBytes], reply: IndexReply<ScanReport>)
    /// Make these the roots (a config reload).
    case replaceRoots([LibraryRoot], reply: IndexReply<RootChange>)
    /// Decide again whether each root's file system is there (`Indexer.recheckRoots`).
    case recheckRoots(reply: IndexReply<Void>)
    /// The owner says what is away under this root is gone (`Indexer.forgetAway`).
    case forgetAway(LibraryRoot, reply: IndexReply<ScanReport>)
    /// Index files photod itself just wrote (an import), without waiting for their events.
    case ingest([PathBytes], reply: IndexReply<Void>)
    /// Apply what the watcher has seen since it last sent this: sent, not awaited, so the
    /// events that arrive while a batch is written become the next batch, with no task between
    /// the kernel's queue and the index but this loop.
    case liveEvents(any LiveEventSource)

    /// Answers the command with `error` without running it.
    func refuse(_ error: any Error) {
        switch self {
        case .reconcile(_, _, let reply): reply.fail(error)
        case .reconcileFolders(_, let reply): reply.fail(error)
        case .replaceRoots(_, let reply): reply.fail(error)
        case .recheckRoots(let reply): reply.fail(error)
        case .forgetAway(_, let reply): reply.fail(error)
        case .ingest(_, let reply): reply.fail(error)
        case .liveEvents: break  // nobody waits; a reconcile at the next start finds the changes
        }
    }
}

/// Where `IndexCommand.liveEvents` takes its actions from (the watcher).
protocol LiveEventSource: Sendable {
    /// Returns when the events seen so far are ready to be taken (the watcher lets a moment
    /// pass after the first, for what follows it at once).
    func settle() async
    /// Everything seen since the last call, decoded into actions in order.
    func takeActions() -> [WatchAction]
}

extension LiveEventSource {
    /// Ready at once.
    func settle() async {}
}

/// The roots a reload added and removed, as configured.
struct RootChange: Sendable, Equatable {
    var added: [String]
    var removed: [String]
}

/// Where a command's answer goes: answered once, by the loop or — when the asker stops
/// waiting (its client hung up) — by the asker's cancellation, whichever comes first.
final class IndexReply<Value: Sendable>: Sendable {
    private let waiter: Mutex<CheckedContinuation<Value, any Error>?>

    fileprivate init(_ continuation: CheckedContinuation<Value, any Error>) {
        waiter = Mutex(continuation)
    }

    /// True once the asker has its answer or stopped waiting.
    private var isAnswered: Bool { waiter.withLock { $0 == nil } }

    /// Answers with `value`; nothing when already answered.
    func succeed(_ value: Value) {
        waiter.withLock { $0.take() }?.resume(returning: value)
    }

    /// Answers with `error`; nothing when already answered.
    func fail(_ error: any Error) {
        waiter.withLock { $0.take() }?.resume(throwing: error)
    }

    /// Answers with what `body` returns or throws; runs nothing when the asker has stopped
    /// waiting (its client hung up before the loop reached the command).
    func complete(_ body: () async throws -> Value) async {
        guard !isAnswered else { return }
        do { succeed(try await body()) } catch { fail(error) }
    }
}

/// The indexer has stopped (shutdown): a command sent now is not run.
struct IndexerStoppedError: Error, CustomStringConvertible {
    var description: String { "photod is shutting down: the indexer takes no more work" }
}

/// The queue between everything that asks for index changes and the one loop that makes them.
final class IndexCommandQueue: Sendable {
    /// The commands in the order they were sent; read by exactly one loop.
    let commands: AsyncStream<IndexCommand>
    private let input: AsyncStream<IndexCommand>.Continuation
    private let posted = Atomic<Int>(0)

    /// How many commands were queued so far: what a test waits on to know a command it sent
    /// from another task is in line, instead of sleeping.
    var sent: Int { posted.load(ordering: .acquiring) }

    init() {
        (commands, input) = AsyncStream.makeStream(of: IndexCommand.self)
    }

    /// Sends the command `make` builds and waits for its answer. An asker that is cancelled
    /// stops waiting at once with `CancellationError`; the loop then skips the command if it
    /// has not started it.
    func send<Value: Sendable>(_ make: (IndexReply<Value>) -> IndexCommand) async throws -> Value {
        let holder = Mutex<IndexReply<Value>?>(nil)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let reply = IndexReply(continuation)
                holder.withLock { $0 = reply }
                let command = make(reply)
                if !post(command) {
                    command.refuse(IndexerStoppedError())
                } else if Task.isCancelled {
                    reply.fail(CancellationError())
                }
            }
        } onCancel: {
            holder.withLock { $0 }?.fail(CancellationError())
        }
    }

    /// Sends `command` without waiting for it; false when the indexer has stopped.
    @discardableResult
    func post(_ command: IndexCommand) -> Bool {
        if case .terminated = input.yield(command) { return false }
        posted.add(1, ordering: .releasing)
        return true
    }
}
