import FileSystem
import Posix
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// An inotify instance. The only file with unsafe code.
///
/// A dedicated thread polls the inotify descriptor through a `WakeablePoll`; `close()` wakes it.
/// The descriptors are closed under the same lock that guards `addWatch`, so a call racing with
/// `close()` never reaches a reused descriptor number.
public final class Inotify: Sendable {
    private struct State: Sendable {
        var closed = false
        var descriptorsOpen = true
        var streamRequested = false
        var readerRunning = false
        var continuation: AsyncStream<[WatchEvent]>.Continuation?
    }

    /// Bytes per `read()`: many events, and always more than one maximal event (16 + NAME_MAX + 1).
    private static let readSize = 64 * 1024
    /// The event that stands for batches the stream had to drop.
    private static let overflowMarker = WatchEvent(wd: -1, mask: WatchMask.queueOverflow, cookie: 0, name: [])

    /// Batches the stream buffers before new ones are dropped (and an overflow is reported instead).
    private let bufferedBatches: Int
    private let descriptor: Int32
    /// What the reader waits on; `close()` wakes it.
    private let poller: WakeablePoll
    private let state = Mutex(State())

    /// Opens an instance (`inotify_init1(IN_CLOEXEC|IN_NONBLOCK)`) and its wakeable poll.
    public convenience init() throws(WatcherError) {
        try self.init(bufferedBatches: 1024)
    }

    /// Opens an instance whose stream buffers at most `bufferedBatches` unconsumed batches.
    init(bufferedBatches: Int) throws(WatcherError) {
        self.bufferedBatches = max(1, bufferedBatches)
        let fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0 else { throw .system(operation: "inotify_init1", errno: errno) }
        do {
            poller = try WakeablePoll()
        } catch {
            Glibc.close(fd)
            throw .system(operation: "socketpair", errno: error.errno)
        }
        descriptor = fd
    }

    deinit {
        state.withLock { state in
            guard state.descriptorsOpen else { return }
            closeDescriptors(&state)
        }
    }

    /// Watches the folder at `path` with `mask`; returns its watch descriptor (the same one again
    /// for a folder already watched).
    public func addWatch(_ path: PathBytes, mask: UInt32) throws(WatcherError) -> Int32 {
        let cPath = path.cString
        let result: Result<Int32, WatcherError> = state.withLock { state in
            guard !state.closed, state.descriptorsOpen else {
                return .failure(.system(operation: "inotify_add_watch", errno: EBADF))
            }
            let wd = inotify_add_watch(descriptor, cPath, mask)
            guard wd >= 0 else {
                let error = errno
                return .failure(error == ENOSPC ? .noWatchesLeft : .system(operation: "inotify_add_watch", errno: error))
            }
            return .success(wd)
        }
        return try result.get()
    }

    /// Removes a watch (`inotify_rm_watch`); a watch already gone is not an error.
    public func removeWatch(_ wd: Int32) {
        state.withLock { state in
            guard !state.closed, state.descriptorsOpen else { return }
            _ = inotify_rm_watch(descriptor, wd)
        }
    }

    /// Batches of events, one element per `read()`, read by a dedicated thread. Call once: a second
    /// call, or a call after `close()`, returns a finished stream. Ending the iteration (cancelling
    /// the consuming task) closes the instance. If the consumer falls 1024 batches behind, newer
    /// batches are dropped and an overflow event (wd -1) is delivered in their place.
    public func events() -> AsyncStream<[WatchEvent]> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: [WatchEvent].self, bufferingPolicy: .bufferingOldest(bufferedBatches))
        let start = state.withLock { state -> Bool in
            guard !state.closed, !state.streamRequested else { return false }
            state.streamRequested = true
            state.readerRunning = true
            state.continuation = continuation
            return true
        }
        guard start else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in self?.close() }
        let started = DetachedThread.start(name: "photod-inotify") { [self] in readLoop(continuation) }
        if !started {
            state.withLock { $0.readerRunning = false }
            close()
        }
        return stream
    }

    /// Stops the reader thread (wakes its poll), finishes the stream, closes the fds.
    public func close() {
        let continuation = state.withLock { state -> AsyncStream<[WatchEvent]>.Continuation? in
            guard !state.closed else { return nil }
            state.closed = true
            if state.readerRunning {
                // The reader closes the descriptors when it leaves; this lock keeps them open until then.
                poller.wake()
            } else if state.descriptorsOpen {
                closeDescriptors(&state)
            }
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.finish()
    }

    /// Whether events wait in the kernel's queue that the reader thread has not read yet: a
    /// test that needs each write read as a batch of its own waits for this to be false.
    var hasUnreadEvents: Bool {
        state.withLock { state in
            guard state.descriptorsOpen else { return false }
            var polled = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            return poll(&polled, 1, 0) > 0 && polled.revents & Int16(POLLIN) != 0
        }
    }

    /// Whether the descriptors are still open (the reader thread closes them when it leaves).
    var descriptorsOpen: Bool { state.withLock { $0.descriptorsOpen } }

    private func closeDescriptors(_ state: inout State) {
        Glibc.close(descriptor)
        poller.close()
        state.descriptorsOpen = false
    }

    /// The reader thread: polls, reads, yields one batch per read; leaves when woken by `close()`.
    ///
    /// One read per poll, so a wake is looked at between reads even under a flood.
    private func readLoop(_ continuation: AsyncStream<[WatchEvent]>.Continuation) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.readSize, alignment: 8)
        defer { buffer.deallocate() }
        var overflowPending = false
        running: while true {
            if overflowPending, case .enqueued = continuation.yield([Self.overflowMarker]) {
                overflowPending = false
            }
            // While an overflow waits for room in the stream, retry it every 50 ms.
            let outcome = poller.wait(on: descriptor, for: Int16(POLLIN), timeout: overflowPending ? 50 : -1)
            guard !outcome.failed, !outcome.woken else { break }
            let inotifyReady = outcome.events
            guard inotifyReady & Int16(POLLIN) != 0 else {
                if inotifyReady != 0 { break }  // POLLERR, POLLHUP, POLLNVAL
                continue
            }
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count < 0, errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK { continue }
            guard count > 0 else { break }
            var batch = InotifyEventParser.parse(Array(UnsafeRawBufferPointer(rebasing: buffer[..<count])))
            if overflowPending { batch.insert(Self.overflowMarker, at: 0) }
            switch continuation.yield(batch) {
            case .enqueued: overflowPending = false
            case .dropped: overflowPending = true
            case .terminated: break running
            @unknown default: break
            }
        }
        continuation.finish()
        state.withLock { state in
            state.readerRunning = false
            state.closed = true
            state.continuation = nil
            if state.descriptorsOpen { closeDescriptors(&state) }
        }
    }

    /// `/proc/sys/fs/inotify/max_user_watches`, or nil when it cannot be read.
    static func maxUserWatches() -> Int? {
        let fd = open("/proc/sys/fs/inotify/max_user_watches", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { Glibc.close(fd) }
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let digits = bytes[..<count].prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        return Int(String(decoding: digits, as: UTF8.self))
    }
}
