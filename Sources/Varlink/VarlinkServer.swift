import Logging
import NIOCore
import NIOPosix
import Synchronization

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
        /// Connections served at once; a connection beyond that is closed as soon as it is accepted.
        public var maxConnections = 64
        /// Runs once per connection, before its first call is read, with the peer's
        /// credentials; what it returns is handed to every handler as `context.attachment`.
        /// It runs at connect time because the peer's pid is most trustworthy then: later the
        /// process may have exited and its pid been reused.
        public var attach: (@Sendable (VarlinkPeer?) async -> (any Sendable)?)?
        /// The user's runtime directory: a socket bound under it needs it and every folder
        /// below it to be private (see `SocketFolder.prepare`). Nil: only the folders created.
        public var runtimeDirectory: String?

        /// The defaults: 1 MiB messages, 64 connections, nothing attached.
        public init() {}
    }

    typealias ServerChannel = NIOAsyncChannel<AcceptedConnection, Never>

    private enum Phase {
        case idle
        case starting
        case started(ServerChannel, created: Posix.FileIdentity?)
        case running
        case stopped
    }

    private struct State {
        var phase = Phase.idle
        var connections = 0
        var lastConnectionID: UInt64 = 0
    }

    private let listener: Listener
    private let registry: VarlinkRegistry
    private let configuration: Configuration
    private let logger: Logger
    private let state = Mutex(State())

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
    }

    deinit {
        // A server started but never run still holds its socket.
        if case .started(let channel, _) = self.state.withLock({ $0.phase }) {
            channel.channel.close(promise: nil)
        }
    }

    /// Connections being served now.
    public var connectionCount: Int {
        self.state.withLock { $0.connections }
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
            let (channel, created) = try await self.bind()
            self.state.withLock { $0.phase = .started(channel, created: created) }
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
        let (channel, created): (ServerChannel, Posix.FileIdentity?) = try self.state.withLock { state in
            guard case .started(let channel, let created) = state.phase else {
                throw VarlinkServerError.alreadyStarted
            }
            state.phase = .running
            return (channel, created)
        }
        defer {
            self.removeSocketFile(ifStill: created)
            self.state.withLock { $0.phase = .stopped }
        }
        do {
            try await channel.executeThenClose { inbound in
                try await withThrowingDiscardingTaskGroup { group in
                    for try await accepted in inbound {
                        guard let connection = accepted.take() else { continue }
                        guard let id = self.admit() else {
                            self.logger.warning(
                                "varlink connection limit reached, closing the new connection",
                                metadata: ["limit": "\(self.configuration.maxConnections)"]
                            )
                            group.addTask { await AcceptedConnection.discard(connection) }
                            continue
                        }
                        group.addTask {
                            await VarlinkConnection(
                                id: id,
                                channel: connection,
                                registry: self.registry,
                                maxMessageBytes: self.configuration.maxMessageBytes,
                                attach: self.configuration.attach,
                                logger: self.logger
                            ).run()
                            self.release()
                        }
                    }
                }
            }
        } catch is CancellationError {
            // Cancellation is how run() is asked to stop.
        }
        self.logger.info("varlink server stopped")
    }

    private func admit() -> UInt64? {
        self.state.withLock { state in
            guard state.connections < self.configuration.maxConnections else { return nil }
            state.connections += 1
            state.lastConnectionID += 1
            return state.lastConnectionID
        }
    }

    private func release() {
        self.state.withLock { $0.connections -= 1 }
    }

    private func bind() async throws -> (ServerChannel, Posix.FileIdentity?) {
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.backlog, value: 256)
        let initializer: @Sendable (any Channel) -> EventLoopFuture<AcceptedConnection> = { channel in
            channel.eventLoop.makeCompletedFuture {
                AcceptedConnection(try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel))
            }
        }
        switch self.listener {
        case .inheritedFileDescriptor(let descriptor):
            let channel = try await bootstrap.bind(descriptor, childChannelInitializer: initializer)
            self.logger.info("varlink server listening on an inherited socket", metadata: ["fd": "\(descriptor)"])
            return (channel, nil)
        case .path(let path):
            try await self.clearSocketPath(path)
            let channel = try await bootstrap.bind(unixDomainSocketPath: path, childChannelInitializer: initializer)
            do {
                try Posix.setPermissions(path, 0o600)
            } catch {
                try? await channel.executeThenClose { _ in }
                throw error
            }
            self.logger.info("varlink server listening", metadata: ["path": "\(path)"])
            return (channel, Posix.identity(at: path))
        }
    }

    /// Makes `path` free to bind, or throws when another server owns it.
    private func clearSocketPath(_ path: String) async throws {
        try SocketFolder.prepare(socket: path, runtimeDirectory: self.configuration.runtimeDirectory)
        switch Posix.kind(at: path) {
        case .missing:
            return
        case .other:
            throw VarlinkServerError.notASocket(path: path)
        case .socket:
            if try await SocketProbe.isAnswered(path) {
                throw VarlinkServerError.alreadyListening(path: path)
            }
            self.logger.notice("removing stale varlink socket", metadata: ["path": "\(path)"])
            try Posix.remove(path)
        }
    }

    /// Removes the socket file unless another server has replaced it since.
    private func removeSocketFile(ifStill created: Posix.FileIdentity?) {
        guard case .path(let path) = self.listener, let created, Posix.identity(at: path) == created else { return }
        do {
            try Posix.remove(path)
        } catch {
            self.logger.warning("cannot remove varlink socket", metadata: ["error": "\(error)"])
        }
    }
}
