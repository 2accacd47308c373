#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// Ends a blocking client's send or receive from another thread (a cancelled task, a caller
/// that stops a stream): it shuts the socket down, so the waiting call returns at once and the
/// client closes. It never touches a descriptor the client has already closed, which by then may
/// be another file's.
public final class VarlinkInterrupter: Sendable {
    private let descriptor: Mutex<Int32?>

    init(descriptor: Int32) {
        self.descriptor = Mutex(descriptor)
    }

    /// Shuts the socket down, if the client still has it open.
    public func interrupt() {
        self.descriptor.withLock { descriptor in
            if let descriptor { _ = shutdown(descriptor, Int32(SHUT_RDWR)) }
        }
    }

    /// Called by the client before it closes the descriptor.
    func detach() {
        self.descriptor.withLock { $0 = nil }
    }
}
