/// A varlink client over a Unix socket; one call at a time per client.
///
/// A second call while one is in progress throws `VarlinkClientError.busy` rather than waiting:
/// waiting would deadlock a caller that makes a call from inside its own stream loop.
public final class VarlinkClient: Sendable {
    private let connection: ClientConnection

    private init(connection: ClientConnection) {
        self.connection = connection
    }

    deinit {
        self.connection.close()
    }

    /// Connects to a server; throws VarlinkConnectError (with the POSIX errno description) when
    /// nothing listens, and VarlinkUntrustedServerError, having sent nothing, when the kernel
    /// says the server runs as a user outside `trusted` (by default: only this process's own).
    public static func connect(unixSocketPath: String, trusted: TrustedServer = .sameUser) async throws -> VarlinkClient {
        VarlinkClient(connection: try await ClientConnection.open(path: unixSocketPath, trusted: trusted))
    }

    /// Calls `method` and decodes its reply; an error reply throws VarlinkError.
    ///
    /// Cancelling the calling task closes the connection: the reply could no longer be told
    /// apart from the next call's.
    public func call<P: Encodable & Sendable, R: Decodable & Sendable>(
        _ method: String,
        _ parameters: P,
        returning: R.Type
    ) async throws -> R {
        let message = try JSONWire.call(method: method, parametersJSON: JSONWire.encodeObject(parameters), more: false)
        try self.connection.acquire()
        defer { self.connection.release() }
        try await self.connection.send(message)
        let reply = try await self.connection.nextReply()
        if reply.continues {
            // Later replies would be taken as the answers to later calls.
            self.connection.close()
            throw VarlinkClientError.invalidReply("continues set on a call without more")
        }
        return try reply.value(as: R.self)
    }

    /// Calls `method` with `oneway: true` and returns once it is sent: the server sends no reply.
    ///
    /// The call is only known to be written to the socket, not to have run; a later call on this
    /// client is answered after it, since a server handles one connection's calls in order.
    public func callOneway<P: Encodable & Sendable>(_ method: String, _ parameters: P) async throws {
        let message = try JSONWire.call(
            method: method, parametersJSON: JSONWire.encodeObject(parameters), more: false, oneway: true
        )
        try self.connection.acquire()
        defer { self.connection.release() }
        try await self.connection.send(message)
    }

    /// Calls `method` with `more: true`; ends when the server's reply has no continues.
    ///
    /// Replies are read from the socket only as the stream is iterated, so a slow consumer slows
    /// the server down instead of filling this process's memory. Leaving the loop before the end
    /// closes the connection (varlink has no other way to stop a stream); later calls on this
    /// client then throw `VarlinkClientError.closed`.
    public func stream<P: Encodable & Sendable, R: Decodable & Sendable>(
        _ method: String,
        _ parameters: P,
        returning: R.Type
    ) -> AsyncThrowingStream<R, Error> {
        let cursor = VarlinkStreamCursor<ClientConnection, R>(
            connection: self.connection,
            message: Result {
                try JSONWire.call(method: method, parametersJSON: JSONWire.encodeObject(parameters), more: true)
            }
        )
        return AsyncThrowingStream { try await cursor.next() }
    }

    /// Closes the connection; calls in progress fail.
    public func close() async {
        self.connection.close()
        try? await self.connection.channel.closeFuture.get()
    }
}
