#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// The file descriptors that came with one reply; it closes every one not taken when it goes away.
///
/// Index `i` is the descriptor the reply's parameters call `i` (`"fileDescriptor": 0` is the
/// first), in the order the server attached them.
public final class ReceivedFileDescriptors: Sendable {
    private let slots: Mutex<[Int32?]>

    package init(_ descriptors: [Int32]) {
        self.slots = Mutex(descriptors.map { Optional($0) })
    }

    deinit {
        self.closeAll()
    }

    /// How many descriptors came with the reply, taken ones included.
    public var count: Int {
        self.slots.withLock { $0.count }
    }

    /// Hands the descriptor at `index` over to the caller, who must close it; nil when the reply
    /// carried no such index or it was already taken.
    public func take(_ index: Int) -> Int32? {
        self.slots.withLock { slots in
            guard slots.indices.contains(index) else { return nil }
            defer { slots[index] = nil }
            return slots[index]
        }
    }

    /// Closes every descriptor not taken, now rather than when this goes away.
    public func closeAll() {
        for descriptor in self.takeAll() {
            _ = close(descriptor)
        }
    }

    /// Every descriptor not yet taken, now the caller's.
    func takeAll() -> [Int32] {
        self.slots.withLock { slots in
            defer { slots = slots.map { _ in nil } }
            return slots.compactMap { $0 }
        }
    }
}
