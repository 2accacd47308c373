import PhotoAPI
import VarlinkCore

/// A typed client of photod's `io.photod.Library` interface over its Unix socket.
///
/// One call at a time per client; open several clients for concurrent calls. It speaks over a
/// blocking socket on a thread of its own (VarlinkClient), without SwiftNIO, so a short
/// command such as `photoctl groups` starts no event loop.
public final class PhotoClient: Sendable {
    private let connection: VarlinkClient
    /// The socket this client talks to (for `--host`, the host).
    public let socketPath: String
    /// The ssh child the connection runs through, for `photoctl --host`; nil over a local socket.
    private let bridge: RemoteBridge?

    private init(connection: VarlinkClient, socketPath: String, bridge: RemoteBridge? = nil) {
        self.connection = connection
        self.socketPath = socketPath
        self.bridge = bridge
    }

    /// Connects to photod on `host` through `ssh HOST photoctl bridge` (`remoteArguments` are
    /// what the far side's photoctl is given). The far side's photod names the caller from the
    /// bridge's SSH login, as for a photoctl run there; nothing about identity is sent.
    public static func connect(
        host: String, remoteArguments: [String], environment: [String: String]
    ) throws(PhotoClientError) -> PhotoClient {
        let (bridge, descriptor) = try RemoteBridge.start(host: host, remoteArguments: remoteArguments,
                                                           environment: environment)
        return PhotoClient(connection: VarlinkClient.adopting(socketDescriptor: descriptor), socketPath: host,
                           bridge: bridge)
    }

    /// Connects to photod at `socketPath` (by default `$PHOTOD_SOCKET`, else the XDG runtime socket).
    ///
    /// A socket under the user's runtime directory is used only when that directory and the
    /// folders below it are the user's own and private; and whatever the path, nothing is sent
    /// until the kernel says the server runs as this user or as `serviceUser` (the uid photod
    /// runs as when it is a system service). `onCallingThread`: see `VarlinkClient.connect`.
    public static func connect(
        socketPath: String = DefaultPaths().socket, serviceUser: UInt32? = nil,
        runtimeDirectory: String = DefaultPaths().runtimeDirectory, onCallingThread: Bool = false
    ) async throws(PhotoClientError) -> PhotoClient {
        try await connect(socketPath: socketPath, serviceUser: serviceUser, runtimeDirectory: runtimeDirectory,
                          localAddress: nil, onCallingThread: onCallingThread)
    }

    /// `connect`, with this end bound to `localAddress` first: a test's in-process daemon tells
    /// its callers apart by it (`VarlinkPeer.address`), as they share one process.
    package static func connect(
        socketPath: String, serviceUser: UInt32? = nil, runtimeDirectory: String, localAddress: String?,
        onCallingThread: Bool = false
    ) async throws(PhotoClientError) -> PhotoClient {
        try verifyFolder(of: socketPath, runtimeDirectory: runtimeDirectory)
        do {
            let connection = try await VarlinkClient.connect(
                unixSocketPath: socketPath, trusted: .sameUser(or: serviceUser), localAddress: localAddress,
                onCallingThread: onCallingThread)
            return PhotoClient(connection: connection, socketPath: socketPath)
        } catch {
            throw .connecting(socketPath, failedWith: error)
        }
    }

    /// Refuses a socket whose runtime folders another user controls or could control; shared
    /// with `OriginalsClient`, which must trust the same sockets and no others.
    static func verifyFolder(of socketPath: String, runtimeDirectory: String) throws(PhotoClientError) {
        do {
            try SocketFolder.verify(socket: socketPath, runtimeDirectory: runtimeDirectory)
        } catch {
            throw .untrustedSocket(socket: socketPath, reason: error.description)
        }
    }

    /// The uid of the user called `name` (or of the number `name`), for `serviceUser`.
    public static func userID(named name: String) -> UInt32? {
        TrustedServer.userID(named: name)
    }

    /// Closes the connection.
    public func close() async {
        await connection.close()
        await bridge?.reap()
    }

    /// The daemon's health and counts.
    public func status() async throws(PhotoClientError) -> StatusReply {
        try await call(LibraryMethods.status, NoParameters())
    }

    /// Every group visible to this client.
    public func groups() async throws(PhotoClientError) -> [Group] {
        try await listGroups().groups
    }

    /// Every group visible to this client, with the progress of a reconcile still filling the index.
    public func listGroups() async throws(PhotoClientError) -> ListGroupsReply {
        try await call(LibraryMethods.listGroups, NoParameters())
    }

    /// One page of assets.
    public func listAssets(_ parameters: ListAssetsParameters) async throws(PhotoClientError) -> ListAssetsReply {
        try await call(LibraryMethods.listAssets, parameters)
    }

    /// Every asset of a group (or all), following cursors page by page; stops after `limit` when
    /// given. `fallback` says how `group` is matched (see `ListAssetsParameters.fallback`);
    /// `since`, `until` and `reverse` are `ListAssets`' time filters and order.
    public func allAssets(
        group: String?, fallback: Bool? = nil, sort: AssetSort? = nil, limit: Int? = nil, since: String? = nil,
        until: String? = nil, reverse: Bool? = nil
    ) async throws(PhotoClientError) -> [Asset] {
        try await listAll(ListAssetsParameters(
            group: group, sort: sort, limit: limit, fallback: fallback, since: since, until: until, reverse: reverse)).assets
    }

    /// Every asset `parameters` ask for, following cursors page by page from its own; stops
    /// after its `limit` when given. With the progress of a reconcile that ran meanwhile.
    public func listAll(_ parameters: ListAssetsParameters) async throws(PhotoClientError) -> AssetPages {
        try await allPages(from: parameters) { asked throws(PhotoClientError) in
            let page = try await listAssets(asked)
            return (page.assets, page.cursor, page.progress)
        }
    }

    /// One page of the assets whose description, file name, make or model holds every word of
    /// the text (ignoring case and accents), newest first.
    public func search(_ parameters: SearchParameters) async throws(PhotoClientError) -> SearchReply {
        try await call(LibraryMethods.search, parameters)
    }

    /// Every asset `text` finds (in one group, or all; `fallback` as for `allAssets`), page by
    /// page; stops after `limit` when given.
    public func searchAll(
        _ text: String, group: String? = nil, fallback: Bool? = nil, limit: Int? = nil
    ) async throws(PhotoClientError) -> [Asset] {
        try await searchAll(SearchParameters(text: text, group: group, limit: limit, fallback: fallback)).assets
    }

    /// Every asset the search `parameters` find, page by page from its cursor; stops after its
    /// `limit` when given. With the progress of a reconcile that ran meanwhile.
    public func searchAll(_ parameters: SearchParameters) async throws(PhotoClientError) -> AssetPages {
        try await allPages(from: parameters) { asked throws(PhotoClientError) in
            let page = try await search(asked)
            return (page.assets, page.cursor, page.progress)
        }
    }

    /// Follows cursors from `first` through `page` (asked for at most 1000 at a time), stopping
    /// after `first.limit` when given. The progress is the last one a page carried: the pages
    /// were gathered while photod was still indexing, even if it finished before the last.
    private func allPages<Parameters: CursorPaging>(
        from first: Parameters,
        _ page: (Parameters) async throws(PhotoClientError) -> ([Asset], String?, ScanProgress?)
    ) async throws(PhotoClientError) -> AssetPages {
        let limit = first.limit
        var pages = AssetPages()
        var asked = first
        repeat {
            asked.limit = limit.map { min($0 - pages.assets.count, 1000) } ?? 1000
            let (found, next, progress) = try await page(asked)
            pages.assets += found
            pages.progress = progress ?? pages.progress
            asked.cursor = next
        } while asked.cursor != nil && (limit.map { pages.assets.count < $0 } ?? true)
        return pages
    }

    /// The assets with these ids, and at these paths (absolute, as indexed); unknown (or hidden)
    /// ids, then paths, come back in `missing`.
    public func getAssets(ids: [String], paths: [String]? = nil, pathBytes: [String]? = nil) async throws(PhotoClientError) -> GetAssetsReply {
        try await call(LibraryMethods.getAssets, GetAssetsParameters(ids: ids, paths: paths, pathBytes: pathBytes))
    }

    /// Owner only: writes `description` (nil: clears it) into the photos `ids`.
    public func setDescription(ids: [String], description: String?) async throws(PhotoClientError) -> SetDescriptionReply {
        try await call(LibraryMethods.setDescription, SetDescriptionParameters(ids: ids, description: description))
    }

    /// Reconciles one root (or all) with the disk now.
    public func rescan(root: String? = nil, forget: Bool? = nil) async throws(PhotoClientError) -> RescanReply {
        try await call(LibraryMethods.rescan, RescanParameters(root: root, forget: forget))
    }

    /// Committed changes as they happen: first the current token (no changes), then the
    /// changes after `since` when given, then each new change. Ends when the daemon ends it.
    public func subscribe(since: Int? = nil) -> AsyncThrowingStream<Change, Error> {
        stream(LibraryMethods.subscribe, SubscribeParameters(since: since)) { $0.change }
    }

    /// A call with `more`: every reply, made into `T` by `transform`, with failures as `PhotoClientError`.
    func stream<P, R, T: Sendable>(
        _ method: VarlinkMethod<P, R>, _ parameters: P, transform: @escaping @Sendable (R) -> T
    ) -> AsyncThrowingStream<T, Error> {
        CallCheck.check(method, parameters)
        let replies = connection.stream(method.qualifiedName, parameters, returning: R.self)
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for try await reply in replies { continuation.yield(transform(reply)) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: await self.explained(PhotoClientError.calling(failedWith: error)))
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    func call<P, R>(_ method: VarlinkMethod<P, R>, _ parameters: P) async throws(PhotoClientError) -> R {
        CallCheck.check(method, parameters)
        do {
            return try await connection.call(method.qualifiedName, parameters, returning: R.self)
        } catch {
            throw await explained(.calling(failedWith: error))
        }
    }

    /// `error`, or ssh's failure when the connection broke because ssh could not reach the
    /// host, log in or run photoctl there.
    private func explained(_ error: PhotoClientError) async -> PhotoClientError {
        guard let bridge else { return error }
        switch error {
        case .stopped, .protocolFailure: return await bridge.failure() ?? error
        default: return error
        }
    }
}
