import NIOCore
import NIOPosix
import Synchronization
import SystemPackage

/// The socket and the read side of a client; one call or stream owns it at a time.
actor ClientConnection: VarlinkStreamConnection {
    nonisolated let channel: any Channel
    private let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    private var iterator: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    private var decoder = VarlinkFrameDecoder(maxMessageBytes: ReplyFrame.maxBytes)
    private nonisolated let lifecycle = Mutex(Lifecycle())

    private struct Lifecycle {
        var busy = false
        var closed = false
    }

    init(channel: any Channel, inbound: NIOAsyncChannelInboundStream<ByteBuffer>, outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) {
        self.channel = channel
        self.outbound = outbound
        self.iterator = inbound.makeAsyncIterator()
    }

    /// Opens a connection, once the kernel says a user in `trusted` serves it. Its channel lives
    /// in a task that closes it once `close()` (or the server) closes the channel:
    /// NIOAsyncChannel hands out its streams only inside executeThenClose.
    static func open(path: String, trusted: TrustedServer) async throws -> ClientConnection {
        let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
        do {
            channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connect(unixDomainSocketPath: path) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            throw SocketProbe.connectError(error, path: path)
        }
        // Before the first byte: a call may carry what the user would not tell a stranger.
        let server = await VarlinkPeer.of(channel.channel)
        guard let server, trusted.userIDs.contains(server.uid) else {
            try? await channel.executeThenClose { _, _ in }
            throw VarlinkUntrustedServerError(path: path, serverUserID: server?.uid, trusted: trusted.userIDs)
        }
        let (handoff, continuation) = AsyncStream.makeStream(of: ClientConnection.self)
        Task {
            try? await channel.executeThenClose { inbound, outbound in
                continuation.yield(ClientConnection(channel: channel.channel, inbound: inbound, outbound: outbound))
                continuation.finish()
                try? await channel.channel.closeFuture.get()
            }
            continuation.finish()
        }
        for await connection in handoff {
            return connection
        }
        throw VarlinkClientError.disconnected
    }

    /// Takes the connection for one call or stream.
    nonisolated func acquire() throws(VarlinkClientError) {
        try self.lifecycle.withLock { (state) throws(VarlinkClientError) in
            guard !state.closed else { throw .closed }
            guard !state.busy else { throw .busy }
            state.busy = true
        }
    }

    nonisolated func release() {
        self.lifecycle.withLock { $0.busy = false }
    }

    /// Closes the socket; the only way to stop a stream the server is still sending.
    nonisolated func close() {
        self.lifecycle.withLock { state in
            state.closed = true
            state.busy = false
        }
        self.channel.close(promise: nil)
    }

    /// Writes one message; a failure closes the connection, as a partial write may have happened.
    func send(_ message: [UInt8]) async throws {
        do {
            try await self.outbound.write(ByteBuffer(bytes: message))
        } catch {
            let reason = self.endOfConnection
            self.close()
            try Task.checkCancellation()
            throw reason
        }
    }

    /// Why no more messages can be exchanged: the client closed it, or the server did.
    private nonisolated var endOfConnection: VarlinkClientError {
        self.lifecycle.withLock(\.closed) ? .closed : .disconnected
    }

    /// The next reply; any failure to read one closes the connection, since the conversation
    /// cannot be picked up again mid-message.
    func nextReply() async throws -> ReplyFrame {
        do {
            let frame = try await self.nextFrame()
            return try ReplyFrame.parse(frame)
        } catch {
            self.close()
            throw error
        }
    }

    private func nextFrame() async throws -> [UInt8] {
        while true {
            if let frame = try self.decoder.nextFrame() {
                return frame
            }
            // Copied out because an actor's stored property cannot be mutated across a suspension;
            // the copy shares the underlying stream, and `busy` keeps readers to one at a time.
            var iterator = self.iterator
            let next = try await iterator.next(isolation: self)
            self.iterator = iterator
            guard let buffer = next else {
                // The inbound stream also ends when the reading task is cancelled.
                try Task.checkCancellation()
                throw self.endOfConnection
            }
            self.decoder.append(buffer.readableBytesView)
        }
    }
}

/// Connect-time errors and the "is anyone listening?" check.
enum SocketProbe {
    /// Whether a server accepts connections on `path`; a refused connection means a stale file.
    static func isAnswered(_ path: String) async throws -> Bool {
        do {
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connect(unixDomainSocketPath: path).get()
            try? await channel.close()
            return true
        } catch let error as IOError where error.errnoCode == ECONNREFUSED || error.errnoCode == ENOENT {
            return false
        }
    }

    static func connectError(_ error: any Error, path: String) -> VarlinkConnectError {
        if let error = error as? IOError {
            return VarlinkConnectError(path: path, errno: error.errnoCode, reason: "\(Errno(rawValue: error.errnoCode))")
        }
        if let error = error as? SocketAddressError, case .unixDomainSocketPathTooLong = error {
            return VarlinkConnectError(path: path, errno: ENAMETOOLONG, reason: "\(Errno.fileNameTooLong)")
        }
        return VarlinkConnectError(path: path, errno: 0, reason: "\(error)")
    }
}
