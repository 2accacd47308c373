#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PhotoAPI
import Synchronization

/// An original file photod opened for this client: its facts and its read-only descriptor,
/// closed when this goes away unless the caller took it.
public final class OpenedOriginal: Sendable {
    /// What photod said about the file (name, size, modification time, format).
    public let reply: OpenOriginalReply
    private let descriptor: Mutex<Int32?>

    init(reply: OpenOriginalReply, fileDescriptor: Int32) {
        self.reply = reply
        self.descriptor = Mutex(fileDescriptor)
    }

    deinit {
        if let descriptor = take() { _ = close(descriptor) }
    }

    /// The descriptor, still owned by this value (closed with it); nil once taken.
    public var fileDescriptor: Int32? {
        descriptor.withLock { $0 }
    }

    /// Hands the descriptor to the caller, who must close it; nil when already taken.
    public func take() -> Int32? {
        descriptor.withLock { $0.take() }
    }
}
