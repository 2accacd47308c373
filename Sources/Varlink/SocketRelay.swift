#if canImport(Glibc)
import Glibc
#endif
import LogLines
import Logging
import Posix
import Synchronization

/// The thread between the listening socket and NIO: it accepts connections and reads each
/// client's socket with recvmsg, so descriptors passed with a call (SCM_RIGHTS) reach the server
/// instead of being closed by the kernel, as a plain read() (NIO's) would have them.
///
/// One thread for every connection (see RelayLoop), started by `start()` and stopped and waited
/// for by `stop()`, which closes every connection it still relays.
final class SocketRelay: Sendable {
    /// The connections accepted, in order; finishes when the relay stops.
    let accepted: AsyncStream<AcceptedConnection>
    private let loop: RelayLoop
    private let wake: (read: Int32, write: Int32)
    private let started = Atomic<Bool>(false)
    private let ended: AsyncStream<Never>
    private let endedContinuation: AsyncStream<Never>.Continuation

    /// A relay that will accept on `listener` (left open: the caller closes it after `stop()`).
    init(listener: Int32, logger: Logger, budget: LogBudget) throws {
        let (accepted, continuation) = AsyncStream.makeStream(of: AcceptedConnection.self)
        self.accepted = accepted
        self.wake = try ListeningSocket.pipe()
        do {
            self.loop = try RelayLoop(
                listener: listener, wake: self.wake.read, output: continuation, logger: logger, budget: budget
            )
        } catch {
            close(self.wake.read)
            close(self.wake.write)
            throw error
        }
        (self.ended, self.endedContinuation) = AsyncStream.makeStream(of: Never.self)
    }

    deinit {
        close(self.wake.read)
        close(self.wake.write)
    }

    /// Starts the thread; throws when none can be made.
    func start() throws {
        let loop = self.loop
        let ended = self.endedContinuation
        let made = DetachedThread.start(name: "varlink-relay") {
            DescriptorWrite.withBrokenPipeSignalBlocked { loop.run() }
            ended.finish()
        }
        guard made else { throw SystemCallError("pthread_create", errno: EAGAIN) }
        self.started.store(true, ordering: .releasing)
    }

    /// Stops the thread and waits for it to end, every connection it relayed closed.
    func stop() async {
        self.loop.requestStop()
        var byte: UInt8 = 1
        _ = write(self.wake.write, &byte, 1)
        guard self.started.load(ordering: .acquiring) else { return }
        for await _ in self.ended {}
    }
}
