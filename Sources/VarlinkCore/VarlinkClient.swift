import Dispatch
import Synchronization
import WireJSON

/// The varlink client for async code: VarlinkDescriptorClient (no SwiftNIO, so photoctl starts
/// no event loop) driven from tasks. It is the one client: photoctl's PhotoClient, photod-notify,
/// the tests and the certification client (checked against the reference implementation's
/// server) all speak through it.
///
/// Each send and receive runs on this connection's own serial queue, on a thread Dispatch adds
/// while one blocks, never on one of the concurrency pool's few threads. A cancelled task
/// interrupts what it waits for and closes the connection (a reply read late would be taken as
/// the next call's). One call or stream at a time: another while one is in progress throws
/// `VarlinkClientError.busy` rather than waiting, so a call made from inside a stream's own loop
/// fails instead of deadlocking.
public final class VarlinkClient: VarlinkStreamConnection {
    private let client: Mutex<VarlinkDescriptorClient?>
    private let interrupter: VarlinkInterrupter
    /// Where the blocking sends and receives run; nil: on the calling thread (`connect`'s `onCallingThread`).
    private let queue: DispatchQueue?
    private let lifecycle = Mutex(Lifecycle())

    private struct Lifecycle {
        var busy = false
        var closed = false
    }

    private init(client: consuming sending VarlinkDescriptorClient, queue: DispatchQueue?) {
        self.interrupter = client.interrupter
        self.client = Mutex(client)
        self.queue = queue
    }

    /// Connects to a server; throws VarlinkConnectError (with the POSIX errno description) when
    /// nothing listens, and VarlinkUntrustedServerError, having sent nothing, when the kernel
    /// says the server runs as a user outside `trusted` (by default: only this process's own).
    /// No call or reply waits for a set time (a rescan answers when it is done). `localAddress`:
    /// a path to bind this end to first, which the server reads as `VarlinkPeer.address`.
    ///
    /// `onCallingThread`: block the calling thread in each send and receive instead of handing
    /// them to a thread of the connection's own, which saves a short command two thread
    /// switches a call. Only for a caller with nothing else to run meanwhile, and no timeout
    /// racing the call: the blocked thread is one of the concurrency pool's few.
    public static func connect(unixSocketPath path: String, trusted: TrustedServer = .sameUser,
                               localAddress: String? = nil, onCallingThread: Bool = false) async throws -> VarlinkClient {
        let queue = onCallingThread ? nil : DispatchQueue(label: "varlink.client")
        return try await onThread(queue) {
            VarlinkClient(client: try VarlinkDescriptorClient.connect(
                unixSocketPath: path, trusted: trusted, receiveTimeout: nil, localAddress: localAddress), queue: queue)
        }
    }

    /// A client over `descriptor`, a connected stream socket it now owns (see
    /// `VarlinkDescriptorClient.adopting`); like `connect`, no call waits for a set time.
    public static func adopting(socketDescriptor descriptor: Int32) -> VarlinkClient {
        VarlinkClient(client: VarlinkDescriptorClient.adopting(socketDescriptor: descriptor, receiveTimeout: nil),
                      queue: DispatchQueue(label: "varlink.client"))
    }

    /// Calls `method` and decodes its reply; an error reply throws VarlinkError.
    public func call<P: Encodable & Sendable, R: Decodable & Sendable>(
        _ method: String, _ parameters: P, returning: R.Type
    ) async throws -> R {
        try await self.exclusive { client in try client.call(method, parameters, returning: R.self).reply }
    }

    /// `call`, for wire types that write and read themselves as JSON (the generated ones): the
    /// call built and the reply decoded in one pass each, without JSONEncoder or JSONDecoder.
    public func call<P: Encodable & JSONWritable & Sendable, R: Decodable & JSONReadable & Sendable>(
        _ method: String, _ parameters: P, returning: R.Type
    ) async throws -> R {
        try await self.exclusive { client in try client.call(method, parameters, returning: R.self).reply }
    }

    /// Runs one call's `body` on the connection, refusing a second while one is in progress.
    private func exclusive<T: Sendable>(_ body: @escaping @Sendable (VarlinkDescriptorClient) throws -> T) async throws -> T {
        try self.acquire()
        defer { self.release() }
        return try await self.run(body)
    }

    /// Calls `method` with `oneway: true` and returns once it is sent: the server sends no reply.
    ///
    /// The call is only known to be written to the socket, not to have run; a later call on this
    /// client is answered after it, since a server handles one connection's calls in order.
    public func callOneway<P: Encodable & Sendable>(_ method: String, _ parameters: P) async throws {
        try self.acquire()
        defer { self.release() }
        try await self.run { client in try client.callOneway(method, parameters) }
    }

    /// Calls `method` with `more: true`; ends after the reply without continues. Replies are read
    /// as the stream is iterated, so a slow consumer slows the server down instead of filling this
    /// process's memory; leaving it early closes the connection (varlink has no other way to stop
    /// a stream), and later calls throw `VarlinkClientError.closed`.
    public func stream<P: Encodable & Sendable, R: Decodable & Sendable>(
        _ method: String, _ parameters: P, returning: R.Type
    ) -> AsyncThrowingStream<R, Error> {
        let cursor = VarlinkStreamCursor<VarlinkClient, R>(
            connection: self,
            message: Result {
                try JSONWire.call(method: method, parametersJSON: JSONWire.encodeObject(parameters), more: true)
            }
        )
        return AsyncThrowingStream { try await cursor.next() }
    }

    /// Closes the connection and waits until the socket is closed; a call or stream in progress fails.
    public func close() async {
        self.disconnect()
        // The queue runs in order: once this has run, so has the close.
        try? await Self.onThread(self.queue) {}
    }

    /// Marks the connection closed and interrupts whatever waits on it; the queue closes the
    /// socket once that has returned.
    package func disconnect() {
        self.lifecycle.withLock { state in
            state.closed = true
            state.busy = false
        }
        self.interrupter.interrupt()
        guard let queue else {
            self.client.withLock { $0?.close() }
            return
        }
        queue.async { self.client.withLock { $0?.close() } }
    }

    /// Takes the connection for one call or stream.
    package func acquire() throws(VarlinkClientError) {
        try self.lifecycle.withLock { (state) throws(VarlinkClientError) in
            guard !state.closed else { throw .closed }
            guard !state.busy else { throw .busy }
            state.busy = true
        }
    }

    /// Gives the connection back for the next call.
    package func release() {
        self.lifecycle.withLock { $0.busy = false }
    }

    /// Writes a stream's call.
    package func send(_ message: [UInt8]) async throws {
        try await self.run { client in try client.sendStreamCall(message) }
    }

    /// A stream's next reply.
    package func nextReply() async throws -> ReplyFrame {
        try await self.run { client in try client.nextReplyFrame() }
    }

    /// Runs `body` with the client on this connection's queue; a failure after the task was
    /// cancelled is the cancellation.
    private func run<T: Sendable>(_ body: @escaping @Sendable (VarlinkDescriptorClient) throws -> T) async throws -> T {
        do {
            return try await withTaskCancellationHandler {
                try await Self.onThread(self.queue) {
                    try self.client.withLock { client in
                        guard let client, !self.lifecycle.withLock(\.closed) else { throw VarlinkClientError.closed }
                        return try body(client)
                    }
                }
            } onCancel: {
                self.disconnect()
            }
        } catch {
            try Task.checkCancellation()
            throw error
        }
    }

    /// Runs `body` on `queue`'s thread, or here when there is none.
    private static func onThread<T: Sendable>(
        _ queue: DispatchQueue?, _ body: @escaping @Sendable () throws -> T
    ) async throws -> T {
        guard let queue else { return try body() }
        return try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body() }) }
        }
    }
}
