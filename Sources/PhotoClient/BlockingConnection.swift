import Dispatch
import Synchronization
import VarlinkCore

/// PhotoClient's transport: one Unix socket spoken with VarlinkDescriptorClient (no SwiftNIO,
/// so photoctl starts no event loop), driven from async code.
///
/// Each send and receive runs on this connection's own serial queue, on a thread Dispatch adds
/// while one blocks, never on one of the concurrency pool's few threads. A cancelled task
/// interrupts what it waits for and closes the connection (a reply read late would be taken as
/// the next call's). One call or stream at a time, as with VarlinkClient: another while one is
/// in progress throws `VarlinkClientError.busy` rather than waiting, so a call made from inside
/// a stream's own loop fails instead of deadlocking.
final class BlockingConnection: VarlinkStreamConnection {
    private let client: Mutex<VarlinkDescriptorClient?>
    private let interrupter: VarlinkInterrupter
    private let queue: DispatchQueue
    private let lifecycle = Mutex(Lifecycle())

    private struct Lifecycle {
        var busy = false
        var closed = false
    }

    private init(client: consuming sending VarlinkDescriptorClient, queue: DispatchQueue) {
        self.interrupter = client.interrupter
        self.client = Mutex(client)
        self.queue = queue
    }

    /// Connects to `path` once the kernel says a user in `trusted` serves it; no call or reply
    /// waits for a set time, as none did over SwiftNIO (a rescan answers when it is done).
    static func open(path: String, trusted: TrustedServer, localAddress: String? = nil) async throws -> BlockingConnection {
        let queue = DispatchQueue(label: "photod.client")
        return try await onThread(queue) {
            BlockingConnection(client: try VarlinkDescriptorClient.connect(
                unixSocketPath: path, trusted: trusted, receiveTimeout: nil, localAddress: localAddress), queue: queue)
        }
    }

    /// Calls `method` and decodes its reply; an error reply throws VarlinkError.
    func call<P: Encodable & Sendable, R: Decodable & Sendable>(
        _ method: String, _ parameters: P, returning: R.Type
    ) async throws -> R {
        try self.acquire()
        defer { self.release() }
        return try await self.run { client in
            try client.call(method, parameters, returning: R.self).reply
        }
    }

    /// Calls `method` with `more: true`; ends after the reply without continues. Replies are read
    /// as the stream is iterated; leaving it early closes the connection (varlink has no other
    /// way to stop a stream), and later calls throw `VarlinkClientError.closed`.
    func stream<P: Encodable & Sendable, R: Decodable & Sendable>(
        _ method: String, _ parameters: P, returning: R.Type
    ) -> AsyncThrowingStream<R, Error> {
        let cursor = VarlinkStreamCursor<BlockingConnection, R>(
            connection: self,
            message: Result {
                try JSONWire.call(method: method, parametersJSON: JSONWire.encodeObject(parameters), more: true)
            }
        )
        return AsyncThrowingStream { try await cursor.next() }
    }

    /// Closes the connection and waits until the socket is closed; a call or stream in progress fails.
    func closeAndWait() async {
        self.close()
        // The queue runs in order: once this has run, so has the close.
        try? await Self.onThread(self.queue) {}
    }

    /// Marks the connection closed and interrupts whatever waits on it; the queue closes the
    /// socket once that has returned.
    func close() {
        self.lifecycle.withLock { state in
            state.closed = true
            state.busy = false
        }
        self.interrupter.interrupt()
        self.queue.async { self.client.withLock { $0?.close() } }
    }

    /// Takes the connection for one call or stream.
    func acquire() throws(VarlinkClientError) {
        try self.lifecycle.withLock { (state) throws(VarlinkClientError) in
            guard !state.closed else { throw .closed }
            guard !state.busy else { throw .busy }
            state.busy = true
        }
    }

    func release() {
        self.lifecycle.withLock { $0.busy = false }
    }

    /// Writes a stream's call.
    func send(_ message: [UInt8]) async throws {
        try await self.run { client in try client.sendStreamCall(message) }
    }

    /// A stream's next reply.
    func nextReply() async throws -> ReplyFrame {
        try await self.run { client in try client.nextReplyFrame() }
    }

    /// Runs `body` with the client on this connection's queue; a failure after the task was
    /// cancelled is the cancellation.
    func run<T: Sendable>(_ body: @escaping @Sendable (VarlinkDescriptorClient) throws -> T) async throws -> T {
        do {
            return try await withTaskCancellationHandler {
                try await Self.onThread(self.queue) {
                    try self.client.withLock { client in
                        guard let client, !self.lifecycle.withLock(\.closed) else { throw VarlinkClientError.closed }
                        return try body(client)
                    }
                }
            } onCancel: {
                self.close()
            }
        } catch {
            try Task.checkCancellation()
            throw error
        }
    }

    private static func onThread<T: Sendable>(
        _ queue: DispatchQueue, _ body: @escaping @Sendable () throws -> T
    ) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body() }) }
        }
    }
}
