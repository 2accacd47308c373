import Glibc
import Posix
import Synchronization

/// The one thread that owns the sd-bus connection, and the queue through which other threads
/// hand it work: it polls the bus's descriptor (with the events and timeout sd-bus asks for)
/// and a pipe that `submit` writes to, so a queued command is run at once.
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
    /// The wake-up pipe: the bus thread polls the read end, `submit` writes a byte to the other.
    private let wakeReader: Int32
    private let wakeWriter: Int32

    /// Creates the loop's wake-up pipe; the thread starts with `start`.
    init() throws(SessionBusError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw .failed(operation: "pipe", errno: errno) }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        wakeReader = ends[0]
        wakeWriter = ends[1]
    }

    deinit {
        close(wakeReader)
        close(wakeWriter)
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
        // A full pipe already wakes the thread: a failed write loses nothing.
        var byte: UInt8 = 1
        _ = write(wakeWriter, &byte, 1)
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
            var descriptors = [pollfd(fd: request.descriptor, events: request.events, revents: 0),
                               pollfd(fd: wakeReader, events: Int16(POLLIN), revents: 0)]
            // EINTR or a ready descriptor alike: go round, run commands, process the bus.
            _ = poll(&descriptors, nfds_t(descriptors.count), request.timeout)
            if descriptors[1].revents != 0 {
                var drained = [UInt8](repeating: 0, count: 64)
                while read(wakeReader, &drained, drained.count) > 0 {}
            }
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
