#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import VarlinkCore

/// A connection the relay accepted, on its way to the task that serves it: who the peer is, and
/// the descriptors the server needs, closed here unless taken.
///
/// `input` is the read end of the pipe the relay copies the client's bytes into, `output` and
/// `sender` are duplicates of the socket: NIO writes replies to `output` (and may close it alone
/// when the client hangs up), `sender` stays open for replies with descriptors until the
/// connection's last handler is done. Closing them is how the relay learns the connection ended
/// (once the client half-closed and the pipe is gone, the socket's shutdown is).
final class AcceptedConnection: Sendable {
    /// The descriptors of one connection, for exactly one owner.
    struct Descriptors: Sendable {
        /// The pipe's read end: NIO's input.
        let input: Int32
        /// A duplicate of the socket: NIO's output.
        let output: Int32
        /// A duplicate of the socket for sendmsg with descriptors (ConnectionOutput).
        let sender: Int32

        /// Closes all three, the socket shut down so the client and the relay see it end.
        func close() {
            _ = Glibc.close(self.input)
            _ = Glibc.close(self.output)
            ServedSocket.end(self.sender)
        }
    }

    /// The peer's credentials and bound path, read at accept time; nil where the kernel had none.
    let peer: VarlinkPeer?
    /// The descriptors the client passes, as the relay receives them.
    let inbox: DescriptorInbox
    /// Where the relay says the client is gone, as opposed to done sending.
    let departure: ClientDeparture
    private let descriptors: Mutex<Descriptors?>

    init(_ descriptors: Descriptors, peer: VarlinkPeer?, inbox: DescriptorInbox, departure: ClientDeparture) {
        self.descriptors = Mutex(descriptors)
        self.peer = peer
        self.inbox = inbox
        self.departure = departure
    }

    deinit {
        self.discard()
    }

    /// The descriptors, for exactly one owner, who must close them (NIO does, for the two it takes).
    func take() -> Descriptors? {
        self.descriptors.withLock { descriptors in
            defer { descriptors = nil }
            return descriptors
        }
    }

    /// Closes a connection nobody will serve.
    func discard() {
        self.take()?.close()
        self.inbox.closeAll()
    }
}
