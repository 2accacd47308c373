import PhotoAPI
import Synchronization
import VarlinkCore

/// A blocking client for `io.photod.Library.OpenOriginal`, which answers with a file
/// descriptor the NIO-based `PhotoClient` cannot receive.
///
/// One connection serves many calls (an export of many ids); calls block the calling thread and
/// run one at a time. The connection is trusted exactly as `PhotoClient.connect` trusts one.
public final class OriginalsClient: Sendable {
    let connection: Mutex<VarlinkDescriptorClient?>
    /// The socket this client talks to (for `--host`, the host).
    public let socketPath: String
    /// The ssh child the connection runs through (`photoctl --host`), which carries no descriptors.
    private let bridge: RemoteBridge?

    private init(connection: consuming sending VarlinkDescriptorClient, socketPath: String,
                 bridge: RemoteBridge? = nil) {
        self.connection = Mutex(connection)
        self.socketPath = socketPath
        self.bridge = bridge
    }

    /// Whether descriptors can reach this client; over `--host` they cannot, and originals
    /// come as bytes (`read(id:into:)`).
    public var receivesDescriptors: Bool { bridge == nil }

    /// Connects to photod on `host` through ssh, as `PhotoClient.connect(host:...)` does.
    public static func connect(
        host: String, remoteArguments: [String], environment: [String: String]
    ) throws(PhotoClientError) -> OriginalsClient {
        let (bridge, descriptor) = try RemoteBridge.start(host: host, remoteArguments: remoteArguments,
                                                           environment: environment)
        // Unlike a local socket's, a remote call may wait on a slow link: no time limit.
        return OriginalsClient(connection: VarlinkDescriptorClient.adopting(socketDescriptor: descriptor,
                                                                            receiveTimeout: nil),
                               socketPath: host, bridge: bridge)
    }

    /// Connects to photod at `socketPath` after the same checks as `PhotoClient.connect`: the
    /// runtime folders must be private, and the kernel must say the server runs as this user or
    /// as `serviceUser`, before anything is sent.
    public static func connect(
        socketPath: String = DefaultPaths().socket, serviceUser: UInt32? = nil,
        runtimeDirectory: String = DefaultPaths().runtimeDirectory, receiveTimeout: Duration = .seconds(30)
    ) throws(PhotoClientError) -> OriginalsClient {
        try connect(socketPath: socketPath, serviceUser: serviceUser, runtimeDirectory: runtimeDirectory,
                    receiveTimeout: receiveTimeout, localAddress: nil)
    }

    /// `connect`, with this end bound to `localAddress` first (see `PhotoClient.connect`).
    package static func connect(
        socketPath: String, serviceUser: UInt32? = nil, runtimeDirectory: String,
        receiveTimeout: Duration = .seconds(30), localAddress: String?
    ) throws(PhotoClientError) -> OriginalsClient {
        let connection = try blockingConnection(
            socketPath: socketPath, serviceUser: serviceUser, runtimeDirectory: runtimeDirectory, timeout: receiveTimeout,
            localAddress: localAddress)
        return OriginalsClient(connection: connection, socketPath: socketPath)
    }

    /// A blocking connection to photod at `socketPath`, trusted exactly as `PhotoClient.connect`
    /// trusts one: private runtime folders, and a server the kernel says runs as this user or as
    /// `serviceUser`, checked before anything is sent. Each send or receive waits at most `timeout`.
    static func blockingConnection(
        socketPath: String, serviceUser: UInt32?, runtimeDirectory: String, timeout: Duration, localAddress: String? = nil
    ) throws(PhotoClientError) -> VarlinkDescriptorClient {
        try PhotoClient.verifyFolder(of: socketPath, runtimeDirectory: runtimeDirectory)
        do {
            return try VarlinkDescriptorClient.connect(
                unixSocketPath: socketPath, trusted: .sameUser(or: serviceUser), receiveTimeout: timeout,
                localAddress: localAddress)
        } catch {
            throw .connecting(socketPath, failedWith: error)
        }
    }

    /// Connects, opens one original, and closes the connection.
    public static func openOriginal(
        id: String, socketPath: String = DefaultPaths().socket, serviceUser: UInt32? = nil,
        runtimeDirectory: String = DefaultPaths().runtimeDirectory
    ) throws(PhotoClientError) -> OpenedOriginal {
        let client = try connect(socketPath: socketPath, serviceUser: serviceUser, runtimeDirectory: runtimeDirectory)
        defer { client.close() }
        return try client.open(id: id)
    }

    /// Opens the original of `id`: its facts and its read-only descriptor. An id unknown or
    /// hidden from this client is `AssetNotFound`, alike.
    public func open(id: String) throws(PhotoClientError) -> OpenedOriginal {
        try call(OpenOriginalParameters(id: id, acceptFileDescriptors: true))
    }

    /// Sends OpenOriginal with exactly these parameters; a reply without its descriptor is a
    /// protocol failure.
    public func call(_ parameters: OpenOriginalParameters) throws(PhotoClientError) -> OpenedOriginal {
        CallCheck.check(LibraryMethods.openOriginal, parameters)
        let result: Result<OpenedOriginal, PhotoClientError> = connection.withLock { connection in
            guard let connection else { return .failure(.protocolFailure("the connection is closed")) }
            do {
                let (reply, descriptors) = try connection.call(
                    LibraryMethods.openOriginal.qualifiedName, parameters, returning: OpenOriginalReply.self)
                guard let index = reply.fileDescriptor, let descriptor = descriptors.take(index) else {
                    return .failure(.protocolFailure("OpenOriginal's reply came without file descriptor "
                                                     + "\(reply.fileDescriptor ?? -1)"))
                }
                return .success(OpenedOriginal(reply: reply, fileDescriptor: descriptor))
            } catch {
                return .failure(.calling(failedWith: error))
            }
        }
        return try result.get()
    }

    /// Runs `body` on the connection, one call at a time; its failure is a `PhotoClientError`.
    func withConnection<T: Sendable>(_ body: (VarlinkDescriptorClient) throws -> T) throws(PhotoClientError) -> T {
        let result: Result<T, PhotoClientError> = connection.withLock { connection in
            guard let connection else { return .failure(.protocolFailure("the connection is closed")) }
            do {
                return .success(try body(connection))
            } catch {
                return .failure(.calling(failedWith: error))
            }
        }
        return try result.get()
    }

    /// Closes the connection (and waits for ssh to end); later calls fail.
    public func close() {
        connection.withLock { connection in
            connection?.close()
            connection = nil
        }
        bridge?.reapBlocking()
    }

    /// `error`, or ssh's own failure when the connection broke because of it.
    func explained(_ error: PhotoClientError) -> PhotoClientError {
        guard let bridge else { return error }
        switch error {
        case .stopped, .protocolFailure: return bridge.failureBlocking() ?? error
        default: return error
        }
    }
}
