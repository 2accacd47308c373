import Posix
import WireJSON

/// A blocking varlink client, without SwiftNIO: calls, streams (`more`), and the file
/// descriptors a reply carries (SCM_RIGHTS).
///
/// It calls recvmsg itself, with a control buffer, so descriptors sent with a reply arrive. Its
/// calls block the calling thread (each send or receive for at most `receiveTimeout`, when
/// given), so run it on a thread of its own (VarlinkClient does, for async code) rather than on
/// one of the concurrency pool's few threads; `interrupter` stops a wait from another thread.
/// It serves one caller at a time, hence not Sendable. Any failure other than an error reply or
/// a reply that does not decode closes the connection: a reply read late would be taken as the
/// next call's. Replies are capped at `ReplyFrame.maxBytes`.
public final class VarlinkDescriptorClient {
    private var socket: BlockingUnixSocket?
    private var decoder = VarlinkFrameDecoder(maxMessageBytes: ReplyFrame.maxBytes)
    private var pending = PendingDescriptors()
    private var readBuffer = [UInt8](repeating: 0, count: 64 << 10)
    /// Whether a stream's replies are still to come; no call may be sent meanwhile.
    private var streaming = false
    /// Shuts this client's socket down from another thread.
    public let interrupter: VarlinkInterrupter

    /// Whether a stream started with `startStream` has replies still to come.
    public var isStreaming: Bool { self.streaming }

    private init(socket: BlockingUnixSocket) {
        self.socket = socket
        self.interrupter = VarlinkInterrupter(descriptor: socket.descriptor)
    }

    deinit {
        self.close()
    }

    /// Connects to a server; throws VarlinkConnectError when nothing listens, and
    /// VarlinkUntrustedServerError, having sent nothing, when the kernel says the server runs as
    /// a user outside `trusted` (by default only this process's own). `localAddress`: a path to
    /// bind this end to first, which the server reads as `VarlinkPeer.address`.
    public static func connect(
        unixSocketPath path: String,
        trusted: TrustedServer = .sameUser,
        receiveTimeout: Duration? = .seconds(30),
        localAddress: String? = nil
    ) throws -> VarlinkDescriptorClient {
        let socket = try BlockingUnixSocket.open(path: path, timeout: receiveTimeout, localAddress: localAddress)
        // Before the first byte: a call may carry what the user would not tell a stranger.
        let server = PeerCredentials(socket: socket.descriptor).map { VarlinkPeer($0) }
        guard let server, trusted.userIDs.contains(server.uid) else {
            socket.release()
            throw VarlinkUntrustedServerError(path: path, serverUserID: server?.uid, trusted: trusted.userIDs)
        }
        return VarlinkDescriptorClient(socket: socket)
    }

    /// A client over `descriptor`, an already connected stream socket this client now owns (one
    /// end of a socketpair whose other end is a child's stdin and stdout, as `ssh HOST photoctl
    /// bridge`): no server to check, since the process at the other end is this user's own.
    public static func adopting(socketDescriptor descriptor: Int32,
                                receiveTimeout: Duration? = .seconds(30)) -> VarlinkDescriptorClient {
        VarlinkDescriptorClient(socket: BlockingUnixSocket(descriptor: descriptor, timeout: receiveTimeout))
    }

    /// Hands the connected socket to the caller, who must close it (`photoctl bridge` relays
    /// its bytes as they are); this client is closed without it. Nil when already closed.
    public func takeSocketDescriptor() -> Int32? {
        guard let socket = self.socket else { return nil }
        self.interrupter.detach()
        self.socket = nil
        self.streaming = false
        return socket.descriptor
    }

    /// Calls `method` and decodes its reply, with the descriptors that came with it; an error
    /// reply throws VarlinkError (and closes any descriptors it carried).
    public func call<P: Encodable, R: Decodable>(
        _ method: String,
        _ parameters: P,
        returning: R.Type
    ) throws -> (reply: R, fileDescriptors: ReceivedFileDescriptors) {
        try self.call(method, JSONWire.encodeObject(parameters)) { reply throws in try reply.value(as: R.self) }
    }

    /// `call`, for wire types that write and read themselves as JSON (the generated ones): the
    /// call built and the reply decoded in one pass each, without JSONEncoder or JSONDecoder.
    public func call<P: Encodable & JSONWritable, R: Decodable & JSONReadable>(
        _ method: String,
        _ parameters: P,
        returning: R.Type
    ) throws -> (reply: R, fileDescriptors: ReceivedFileDescriptors) {
        try self.call(method, JSONWire.writeObject(parameters)) { reply throws in try reply.value(reading: R.self) }
    }

    private func call<R>(
        _ method: String, _ parametersJSON: [UInt8], decode: (ReplyFrame) throws -> R
    ) throws -> (reply: R, fileDescriptors: ReceivedFileDescriptors) {
        let message = try JSONWire.call(method: method, parametersJSON: parametersJSON, more: false)
        let (reply, descriptors) = try self.exchange(message)
        return (try decode(reply), descriptors)
    }

    /// Calls `method` with `descriptors` passed on the call's first byte (the photo an Import
    /// hands over), and decodes its reply; the descriptors stay the caller's to close.
    public func call<P: Encodable, R: Decodable>(
        _ method: String,
        _ parameters: P,
        passing descriptors: [Int32],
        returning: R.Type
    ) throws -> R {
        let message = try JSONWire.call(method: method, parametersJSON: JSONWire.encodeObject(parameters), more: false)
        let (reply, received) = try self.exchange(message, passing: descriptors)
        received.closeAll()
        return try reply.value(as: R.self)
    }

    /// Sends `method` with `oneway: true`: the server sends no reply, so none is read.
    public func callOneway<P: Encodable>(_ method: String, _ parameters: P) throws {
        try self.send(JSONWire.call(
            method: method, parametersJSON: JSONWire.encodeObject(parameters), more: false, oneway: true))
    }

    /// Sends `method` with `more: true`; its replies then come from `nextReply(as:)`, one per
    /// call, so a slow reader slows the server down rather than filling this process's memory.
    public func startStream<P: Encodable>(_ method: String, _ parameters: P) throws {
        try self.sendStreamCall(JSONWire.call(method: method, parametersJSON: JSONWire.encodeObject(parameters), more: true))
    }

    /// The stream's next reply, nil after the last. An error reply ends the stream (thrown as
    /// VarlinkError); a reply that does not decode as `R` ends it too, closing the connection
    /// when more were to come.
    public func nextReply<R: Decodable>(as type: R.Type) throws -> R? {
        guard self.streaming else { return nil }
        let reply = try self.nextReplyFrame()
        do {
            return try reply.value(as: R.self)
        } catch let error as VarlinkError {
            throw error
        } catch {
            if reply.continues { self.close() }
            throw error
        }
    }

    /// Writes a call made with `more: true`; until its last reply no other call may be sent.
    package func sendStreamCall(_ message: [UInt8]) throws {
        try self.send(message)
        self.streaming = true
    }

    /// Writes one message when no stream is running; a failed write closes the connection.
    private func send(_ message: [UInt8]) throws {
        guard !self.streaming else { throw VarlinkClientError.busy }
        guard let socket = self.socket else { throw VarlinkClientError.closed }
        do {
            try socket.sendAll(message)
        } catch {
            self.close()
            throw error
        }
    }

    /// The stream's next reply as it came; the stream ends with an error reply or one without
    /// continues. Descriptors that come with a stream's replies are closed. A failure closes
    /// the connection.
    package func nextReplyFrame() throws -> ReplyFrame {
        do {
            guard self.streaming, let socket = self.socket else { throw VarlinkClientError.closed }
            let reply = try ReplyFrame.parse(self.nextFrame(from: socket).0)
            if reply.error != nil || !reply.continues {
                self.streaming = false
            }
            return reply
        } catch {
            self.close()
            throw error
        }
    }

    /// Closes the connection and any descriptors received ahead of their reply; later calls
    /// throw `VarlinkClientError.closed`.
    public func close() {
        self.interrupter.detach()
        self.socket?.release()
        self.socket = nil
        self.streaming = false
        self.pending.closeAll()
    }

    /// Sends one call and reads its reply; a failure closes the connection, since the
    /// conversation cannot be picked up again mid-message.
    private func exchange(_ message: [UInt8], passing descriptors: [Int32] = []) throws
        -> (ReplyFrame, ReceivedFileDescriptors) {
        guard !self.streaming else { throw VarlinkClientError.busy }
        guard let socket = self.socket else { throw VarlinkClientError.closed }
        do {
            try socket.sendAll(message, descriptors: descriptors)
            let (frame, descriptors) = try self.nextFrame(from: socket)
            let reply = try ReplyFrame.parse(frame)
            if reply.continues {
                throw VarlinkClientError.invalidReply("continues set on a call without more")
            }
            return (reply, descriptors)
        } catch {
            self.close()
            throw error
        }
    }

    private func nextFrame(from socket: BlockingUnixSocket) throws -> ([UInt8], ReceivedFileDescriptors) {
        while true {
            if let frame = try self.decoder.nextFrame() {
                return (frame, self.pending.takeNext())
            }
            let received = try self.readBuffer.withUnsafeMutableBytes { try socket.receive(into: $0) }
            // Owned from here on, so that every way out below closes or keeps them.
            let arrived = ReceivedFileDescriptors(received.descriptors)
            if received.truncated {
                throw VarlinkFileDescriptorError.truncated(limit: DescriptorPassing.maxPerMessage)
            }
            guard received.count > 0 else { throw VarlinkClientError.disconnected }
            let chunk = self.readBuffer[..<received.count]
            if arrived.count > 0 {
                // The descriptors came with the chunk's last bytes (DescriptorPassing), so they
                // belong to the message that holds its last byte; no frame was pending before it.
                try self.pending.add(arrived, toMessage: chunk.dropLast().count { $0 == 0 })
            }
            self.decoder.append(chunk)
        }
    }
}

@available(*, unavailable)
extension VarlinkDescriptorClient: Sendable {}
