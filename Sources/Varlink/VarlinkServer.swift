#if canImport(Glibc)
import Glibc
#endif
import LogLines
import Logging
import NIOCore
import NIOPosix
import Synchronization
import Posix

/// Why a server could not start.
public enum VarlinkServerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Another process answers on the socket path.
    case alreadyListening(path: String)
    /// Something that is not a socket sits at the socket path; it is left alone.
    case notASocket(path: String)
    /// start() or run() was called a second time.
    case alreadyStarted

    /// The reason, for the log and the exit message.
    public var description: String {
        switch self {
        case .alreadyListening(let path): "another server is listening on \(path)"
        case .notASocket(let path): "\(path) exists and is not a socket"
        case .alreadyStarted: "the varlink server was already started"
        }
    }
}

/// The varlink server on a Unix stream socket.
public final class VarlinkServer: Sendable {
    /// Where the server's listening socket comes from.
    public enum Listener: Sendable {
        /// Bind this path: its missing folders are created 0700, every folder on the way is
        /// checked (`SocketFolder.prepare`), and the socket is made 0600.
        /// A socket file already there is tried first: if a server answers, start() throws
        /// `VarlinkServerError.alreadyListening`; if nobody does, the stale file is replaced.
        case path(String)
        /// Socket activation: an already-bound, listening socket the server takes over.
        case inheritedFileDescriptor(Int32)
    }

    /// Limits that protect the server from its clients.
    public struct Configuration: Sendable {
        /// The longest call accepted, without its NUL; a longer one closes the connection.
        public var maxMessageBytes = 1 << 20
        /// Connections served at once, the owner's included; one beyond that is closed as soon
        /// as it is identified.
        public var maxConnections = 64
        /// Connections one uid may hold at once, unless it is the owner (see `isOwner`).
        public var maxConnectionsPerUID = 16
        /// Of `maxConnections`, how many only the owner may take, so the owner is never locked out.
        public var ownerReservedConnections = 4
        /// Connections accepted and not yet identified (see `attach`); more are closed at once.
        public var maxUnidentifiedConnections = 256
        /// A connection without a call in flight for this long is closed. A streaming call or a
        /// call waiting for something (an answer from the owner) is in flight, so never idle.
        public var idleTimeout: Duration = .seconds(60)
        /// Replies a client may leave unread, in bytes, before its connection is closed.
        public var maxUnsentBytes = 2 << 20
        /// Runs once per connection, before its first call is read, with the peer's
        /// credentials; what it returns is handed to every handler as `context.attachment`.
        /// It runs at connect time because the peer's pid is most trustworthy then: later the
        /// process may have exited and its pid been reused.
        public var attach: (@Sendable (VarlinkPeer?) async -> (any Sendable)?)?
        /// Whether what `attach` returned names the owner, who may take the reserved slots and is
        /// not held to `maxConnectionsPerUID`. Without it, nobody is the owner.
        public var isOwner: (@Sendable ((any Sendable)?) -> Bool)?
        /// The only uid whose processes can be the owner (photod: its own). A peer of another uid
        /// that would be refused as an app is refused before `attach` runs, so a flood from
        /// another user costs no identification. Nil: every peer is identified first.
        public var ownerUID: UInt32?
        /// The user's runtime directory: a socket bound under it needs it and every folder
        /// below it to be private (see `SocketFolder.prepare`). Nil: only the folders created.
        public var runtimeDirectory: String?

        /// The defaults: 1 MiB messages, 64 connections (16 per uid, 4 for the owner), 60 s idle
        /// timeout, 2 MiB unread replies, nothing attached.
        public init() {}
    }

    private enum Phase {
        case idle
        case starting
        /// Listening on this socket, which the server closes when it stops.
        case started(listener: Int32, created: FileIdentity?)
        case running
        case stopped
    }

    private struct State {
        var phase = Phase.idle
    }

    private let listener: Listener
    private let registry: VarlinkRegistry
    private let configuration: Configuration
    private let logger: Logger
    private let state = Mutex(State())
    private let admission: ConnectionAdmission
    /// Budgets for the lines a flood of clients would repeat: refusals, and closes.
    private let refusalLog = LogBudget()
    private let closeLog = LogBudget()

    /// Creates a server; nothing is bound until start() or run().
    public init(
        listener: Listener,
        interfaces: [VarlinkInterface],
        info: VarlinkServiceInfo,
        configuration: Configuration = .init(),
        logger: Logger
    ) {
        self.listener = listener
        self.registry = VarlinkRegistry(interfaces: interfaces, info: info)
        self.configuration = configuration
        self.logger = logger
        self.admission = ConnectionAdmission(.init(
            maxConnections: configuration.maxConnections,
            maxPerUID: configuration.maxConnectionsPerUID,
            ownerReserved: configuration.ownerReservedConnections,
            maxUnidentified: configuration.maxUnidentifiedConnections
        ))
    }

    deinit {
        // A server started but never run still holds its socket.
        if case .started(let listener, _) = self.state.withLock({ $0.phase }) {
            close(listener)
        }
    }

    /// Connections being served now.
    public var connectionCount: Int {
        self.admission.served
    }

    /// Binds (or adopts) the socket; returns once accepting, so callers know the socket is ready.
    ///
    /// Start-up problems (the socket is taken, the folder cannot be made) are thrown here, before
    /// run(), so a daemon can report them and exit before telling systemd it is ready.
    public func start() async throws {
        try self.state.withLock { state in
            guard case .idle = state.phase else { throw VarlinkServerError.alreadyStarted }
            state.phase = .starting
        }
        do {
            let (listener, created) = try await self.bind()
            self.state.withLock { $0.phase = .started(listener: listener, created: created) }
        } catch {
            self.state.withLock { $0.phase = .idle }
            throw error
        }
    }

    /// Serves until the calling task is cancelled; then stops accepting, closes connections, removes a socket file it created.
    ///
    /// Calls start() first when nobody has. Returns normally after cancellation.
    public func run() async throws {
        if case .idle = self.state.withLock({ $0.phase }) {
            try await self.start()
        }
        let (listener, created): (Int32, FileIdentity?) = try self.state.withLock { state in
            guard case .started(let listener, let created) = state.phase else {
                throw VarlinkServerError.alreadyStarted
            }
            state.phase = .running
            return (listener, created)
        }
        defer {
            close(listener)
            self.removeSocketFile(ifStill: created)
            self.state.withLock { $0.phase = .stopped }
        }
        let relay = try SocketRelay(listener: listener, logger: self.logger, budget: self.closeLog)
        try relay.start()
        // Cancellation ends the loop (the stream's iterator returns nil) and every connection's
        // task; then the relay thread stops, closing the sockets it still relays.
        await withDiscardingTaskGroup { group in
            for await accepted in relay.accepted {
                if let refusal = self.admission.beginIdentification() {
                    self.logRefusal(refusal, peer: accepted.peer)
                    accepted.discard()
                    continue
                }
                group.addTask { await self.identifyAndServe(accepted) }
            }
            group.cancelAll()
        }
        await relay.stop()
        self.logger.info("varlink server stopped")
    }

    /// Serves the connection if the admission rules allow, its peer identified by `attach`.
    private func identifyAndServe(_ accepted: AcceptedConnection) async {
        let peer = accepted.peer
        if let ownerUID = self.configuration.ownerUID, peer?.uid != ownerUID,
           let refusal = self.admission.refuseNonOwner(uid: peer?.uid)
        {
            self.logRefusal(refusal, peer: peer)
            accepted.discard()
            return
        }
        let attachment = await self.configuration.attach?(peer)
        let owner = self.configuration.isOwner?(attachment) ?? false
        let slot: ConnectionAdmission.Slot
        switch self.admission.admit(uid: peer?.uid, owner: owner) {
        case .failure(let refusal):
            self.logRefusal(refusal, peer: peer)
            accepted.discard()
            return
        case .success(let admitted):
            slot = admitted
        }
        defer { self.admission.release(slot) }
        var logger = self.logger
        logger[metadataKey: "varlink.connection"] = "\(slot.id)"
        if let peer {
            logger[metadataKey: "varlink.peer"] = "pid=\(peer.pid) uid=\(peer.uid)"
        }
        guard let made = await self.makeChannel(accepted, logger: logger) else { return }
        await VarlinkConnection(
            id: slot.id,
            channel: made.channel,
            sender: made.sender,
            inbox: accepted.inbox,
            departure: accepted.departure,
            registry: self.registry,
            peer: peer,
            attachment: attachment,
            limits: .init(
                maxMessageBytes: self.configuration.maxMessageBytes,
                idleTimeout: TimeAmount(self.configuration.idleTimeout),
                maxUnsentBytes: self.configuration.maxUnsentBytes
            ),
            budget: self.closeLog,
            logger: logger
        ).run()
    }

    /// Says why a connection is closed unserved (within the log budget).
    private func logRefusal(_ refusal: ConnectionAdmission.Refusal, peer: VarlinkPeer?) {
        var metadata: Logger.Metadata = ["reason": "\(refusal)"]
        if let peer {
            metadata["varlink.peer"] = "pid=\(peer.pid) uid=\(peer.uid)"
        }
        self.refusalLog.log(self.logger, .warning, "varlink connection limit reached, refusing a connection", metadata: metadata)
    }

    /// NIO's channel over the relay's pipe (input) and a duplicate of the socket (output), and
    /// the socket's other duplicate for replies with descriptors; nil when NIO would not take them.
    private func makeChannel(
        _ accepted: AcceptedConnection, logger: Logger
    ) async -> (channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>, sender: Int32)? {
        guard let descriptors = accepted.take() else { return nil }
        // The high watermark is the unsent-reply bound ConnectionOutput enforces.
        let unsent = max(self.configuration.maxUnsentBytes, 1)
        let watermark = ChannelOptions.Types.WriteBufferWaterMark(low: unsent / 2, high: unsent)
        do {
            let channel = try await NIOPipeBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .channelOption(ChannelOptions.writeBufferWaterMark, value: watermark)
                // The pipe's end is the client done sending (RelayLoop): its calls still get their
                // replies. A client gone closes the channel through ClientDeparture instead.
                .channelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
                .takingOwnershipOfDescriptors(input: descriptors.input, output: descriptors.output) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                    }
                }
            return (channel, descriptors.sender)
        } catch {
            // Not closing input and output: NIO may have closed them with the channel it failed
            // to set up, and closing a number twice could close someone else's descriptor. The
            // relay sees the connection end once NIO's copies are gone.
            ServedSocket.end(descriptors.sender)
            accepted.inbox.closeAll()
            logger.error("cannot serve a varlink connection", metadata: ["error": "\(error)"])
            return nil
        }
    }

    /// The listening socket, bound (path) or adopted (socket activation), and the identity of the
    /// socket file it created, if any.
    private func bind() async throws -> (Int32, FileIdentity?) {
        switch self.listener {
        case .inheritedFileDescriptor(let descriptor):
            try ListeningSocket.adopt(descriptor)
            self.logger.info("varlink server listening on an inherited socket", metadata: ["fd": "\(descriptor)"])
            return (descriptor, nil)
        case .path(let path):
            try await self.clearSocketPath(path)
            // Deep enough that a client connecting in a loop cannot fill it between two accepts
            // and make the owner's connect fail (the kernel caps it at net.core.somaxconn).
            let listener = try ListeningSocket.bind(path: path, backlog: 4096)
            do {
                try SocketFile.setPermissions(path, 0o600)
            } catch {
                close(listener)
                throw error
            }
            self.logger.info("varlink server listening", metadata: ["path": "\(path)"])
            return (listener, FileIdentity(linkAt: path))
        }
    }

    /// Makes `path` free to bind, or throws when another server owns it.
    private func clearSocketPath(_ path: String) async throws {
        try SocketFolder.prepare(socket: path, runtimeDirectory: self.configuration.runtimeDirectory)
        switch SocketFile.kind(at: path) {
        case .missing:
            return
        case .other:
            throw VarlinkServerError.notASocket(path: path)
        case .socket:
            if try await SocketProbe.isAnswered(path) {
                throw VarlinkServerError.alreadyListening(path: path)
            }
            self.logger.notice("removing stale varlink socket", metadata: ["path": "\(path)"])
            try SocketFile.remove(path)
        }
    }

    /// Removes the socket file unless another server has replaced it since.
    private func removeSocketFile(ifStill created: FileIdentity?) {
        guard case .path(let path) = self.listener, let created, FileIdentity(linkAt: path) == created else { return }
        do {
            try SocketFile.remove(path)
        } catch {
            self.logger.warning("cannot remove varlink socket", metadata: ["error": "\(error)"])
        }
    }
}
