import Glibc
import Posix
import Synchronization

/// The one thread that owns the sd-bus connection, and the queue through which other threads
/// hand it work: it polls the bus's descriptor (with the events and timeout sd-bus asks for)
/// through a `WakeablePoll` that `submit` wakes, so a queued command is run at once.
final class BusLoop: Sendable {
    /// Work for the bus thread; given nil when the connection is already gone.
    typealias Command = @Sendable (BusConnection?) -> Void

    /// What other threads hand the bus thread, and whether it still takes work.
    private struct Queue {
        var commands: [Command] = []
        var closed = false
        /// Callers of `waitUntilClosed`, resumed once the connection is closed.
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let queue = Mutex(Queue())
    /// What the bus thread waits on; `submit` wakes it.
    private let poller: WakeablePoll

    /// Creates the loop's wakeable poll; the thread starts with `start`.
    init() throws(SessionBusError) {
        do {
            poller = try WakeablePoll()
        } catch {
            throw .failed(operation: "socketpair", errno: error.errno)
        }
    }

    /// Starts the bus thread, which connects and then reports through `opened`.
    func start(events: AsyncStream<BusEvent>.Continuation,
               opened: @escaping @Sendable (Result<Void, SessionBusError>) -> Void) {
        // Without a thread nothing reaches the bus: say so rather than wait for `opened` forever.
        let started = DetachedThread.start(name: "session-bus") { [self] in run(events: events, opened: opened) }
        if !started {
            closeQueue(events: events)
            opened(.failure(.failed(operation: "pthread_create", errno: EAGAIN)))
        }
    }

    /// Runs `command` on the bus thread, or at once with nil when the connection is gone.
    func submit(_ command: @escaping Command) {
        let queued = queue.withLock { queue in
            guard !queue.closed else { return false }
            queue.commands.append(command)
            return true
        }
        guard queued else { return command(nil) }
        poller.wake()
    }

    /// Returns once the connection is closed and everything queued before was sent.
    func waitUntilClosed() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let closed = queue.withLock { queue in
                if !queue.closed { queue.waiters.append(waiter) }
                return queue.closed
            }
            if closed { waiter.resume() }
        }
    }

    /// The thread's body: connect, report, serve until stopped or disconnected, then refuse work.
    private func run(events: AsyncStream<BusEvent>.Continuation,
                     opened: @Sendable (Result<Void, SessionBusError>) -> Void) {
        let connection: BusConnection
        do {
            connection = try BusConnection.openUser(events: events)
        } catch {
            closeQueue(events: events)
            return opened(.failure(error))
        }
        opened(.success(()))
        serve(connection, events: events)
        connection.close()
        closeQueue(events: events)
    }

    /// Runs queued commands and dispatches the bus until a stop or a disconnection.
    private func serve(_ connection: BusConnection, events: AsyncStream<BusEvent>.Continuation) {
        while true {
            for command in queue.withLock({ $0.commands.takeAll() }) { command(connection) }
            if connection.stopRequested { return }
            if let reason = connection.processAll() {
                events.yield(.disconnected(reason: reason))
                return
            }
            guard let request = connection.pollRequest() else {
                events.yield(.disconnected(reason: "the bus connection is closed"))
                return
            }
            // Woken, EINTR or a ready descriptor alike: go round, run commands, process the bus.
            _ = poller.wait(on: request.descriptor, for: request.events, timeout: request.timeout)
        }
    }

    /// Refuses new commands, runs the ones left with no connection, and ends the event stream.
    private func closeQueue(events: AsyncStream<BusEvent>.Continuation) {
        let (left, waiters) = queue.withLock { queue in
            queue.closed = true
            return (queue.commands.takeAll(), queue.waiters.takeAll())
        }
        for command in left { command(nil) }
        events.finish()
        for waiter in waiters { waiter.resume() }
    }
}

extension Array {
    /// Removes every element and returns them, in order.
    fileprivate mutating func takeAll() -> [Element] {
        defer { self = [] }
        return self
    }
}
