#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import VarlinkCore

/// The file descriptors one client has sent (SCM_RIGHTS) and no call has claimed yet, each kept
/// at the stream offset of the byte it came with, until the call whose message holds that byte
/// takes them.
///
/// The relay thread records them before it passes the bytes on, so a message's descriptors are
/// here by the time its frame is decoded. Every descriptor is closed exactly once: by the call
/// that claims it (unless its handler takes it), or here.
final class DescriptorInbox: Sendable {
    /// Unclaimed descriptors one connection may hold: a full message's worth queued behind
    /// another's. A client sending more is closing its connection.
    static let limit = 2 * DescriptorPassing.maxPerMessage

    private struct State {
        var held: [(offset: Int, descriptor: Int32)] = []
        var closed = false
    }

    private let state = Mutex(State())

    deinit {
        self.closeAll()
    }

    /// Keeps `descriptors`, which came with the byte at `offset`; false, having closed them, when
    /// that would pass `limit` or the inbox is closed.
    func record(_ descriptors: [Int32], at offset: Int) -> Bool {
        let kept = self.state.withLock { state in
            guard !state.closed, state.held.count + descriptors.count <= Self.limit else { return false }
            state.held += descriptors.map { (offset, $0) }
            return true
        }
        if !kept {
            Self.close(descriptors)
        }
        return kept
    }

    /// The descriptors of the message at `offsets` (NUL included), in the order they came; any
    /// held for bytes before it belonged to no message and are closed.
    func claim(_ offsets: Range<Int>) -> [Int32] {
        let (claimed, stray) = self.state.withLock { state in
            let claimed = state.held.filter { offsets.contains($0.offset) }.map(\.descriptor)
            let stray = state.held.filter { $0.offset < offsets.lowerBound }.map(\.descriptor)
            state.held.removeAll { $0.offset < offsets.upperBound }
            return (claimed, stray)
        }
        Self.close(stray)
        return claimed
    }

    /// Closes every descriptor held, and any recorded from now on.
    func closeAll() {
        let held = self.state.withLock { state in
            state.closed = true
            defer { state.held = [] }
            return state.held.map(\.descriptor)
        }
        Self.close(held)
    }

    private static func close(_ descriptors: [Int32]) {
        for descriptor in descriptors {
            _ = Glibc.close(descriptor)
        }
    }
}
