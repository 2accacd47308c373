import Foundation
import Logging
import PhotoAPI
import PhotoClient
import PhotoTestSupport
import Synchronization
import Testing
import Varlink
@testable import PhotoDaemon

/// photod's whole service group in the test process, like HummingbirdTesting's in-process
/// application: real SQLite, real inotify, a real socket in a temporary folder and
/// `PhotoClient`, with the caller of each connection named by the test instead of read from
/// /proc: each client binds its end of the socket to a path of its own, which the daemon reads
/// (`VarlinkPeer.address`) and looks up. Many run side by side; each stops when its task is cancelled.
final class TestDaemon: Sendable {
    /// The temporary folder holding the library, the index and the socket.
    let dir: TemporaryDirectory
    /// The library root.
    let library: String
    let socket: String
    let database: String
    /// Every line the daemon logged, in order.
    let log: LogRecorder
    let config: DaemonConfig
    private let callers = CallerBook()
    private let running = Mutex<Task<Void, any Error>?>(nil)

    /// The owner as photoctl would be identified.
    static let owner = Caller.owner(AppIdentity(id: "exe:/usr/bin/photoctl", uid: getuid(), source: .executable,
                                                executable: "/usr/bin/photoctl"))

    /// An app of the test's own user, identified by `id`.
    static func app(_ id: String) -> Caller {
        .app(AppIdentity(id: id, uid: getuid(), source: .executable, executable: "/usr/bin/viewer"))
    }

    /// A daemon over a new, empty library; `configure` adjusts the config before it starts.
    init(_ configure: (inout DaemonConfig) -> Void = { _ in }) throws {
        dir = try TemporaryDirectory()
        library = dir.file("library")
        socket = dir.file("run/io.photod")
        database = dir.file("state/index.sqlite")
        try FileManager.default.createDirectory(atPath: library, withIntermediateDirectories: true)
        var config = DaemonConfig.defaults()
        config.roots = [library]
        config.database = database
        config.socket = socket
        config.rescanInterval = 0
        config.pollInterval = 1
        // Never the user's own thumbnail cache.
        config.thumbnails.cacheFolder = dir.file("cache/thumbnails")
        configure(&config)
        self.config = config
        log = LogRecorder()
    }

    /// Writes `bytes` as `relativePath` inside the library; returns its full path.
    @discardableResult
    func add(_ relativePath: String, _ bytes: [UInt8]) throws -> String {
        try dir.write("library/" + relativePath, bytes)
    }

    /// Starts the daemon and returns once its start-up reconcile is done (it is ready).
    func start() async throws {
        let (ready, signal) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        var daemon = Daemon(config: config, logger: log.logger(level: config.logLevel), reloadConfig: { [config] in config })
        daemon.identify = { [callers] peer in callers.caller(at: peer?.address) }
        daemon.handlesSignals = false
        daemon.onReady = { signal.yield() }
        let task = Task {
            defer { signal.finish() }
            try await daemon.run()
        }
        running.withLock { $0 = task }
        var iterator = ready.makeAsyncIterator()
        guard await iterator.next() != nil else {
            // It stopped before it was ready: its error says why.
            try await task.value
            throw TestDaemonError.stoppedBeforeReady(log: log.text)
        }
    }

    /// A client connected as `caller` (the owner unless named).
    func client(as caller: Caller = TestDaemon.owner) async throws -> PhotoClient {
        try await PhotoClient.connect(socketPath: socket, runtimeDirectory: dir.file("no-runtime-dir"),
                                      localAddress: try callers.address(for: caller, in: dir.file("clients")))
    }

    /// A client for originals (file descriptors) connected as `caller` (the owner unless named).
    func originals(as caller: Caller = TestDaemon.owner) async throws -> OriginalsClient {
        try OriginalsClient.connect(socketPath: socket, runtimeDirectory: dir.file("no-runtime-dir"),
                                    localAddress: try callers.address(for: caller, in: dir.file("clients")))
    }

    /// Stops the daemon (as a cancelled service group) and waits until it has.
    func stop() async {
        let task = running.withLock { $0.take() }
        task?.cancel()
        _ = try? await task?.value
    }

    /// Runs `body` with a started daemon, stopping it afterwards whatever happens.
    ///
    /// A test still running after `timeLimit` records an issue and has its daemon stopped, which
    /// ends its connections and so any wait on a reply or a subscription: a change that never
    /// comes fails that test instead of hanging the whole run.
    static func withDaemon<T>(
        _ configure: (inout DaemonConfig) -> Void = { _ in }, prepare: (TestDaemon) async throws -> Void = { _ in },
        timeLimit: Duration = .seconds(120),
        _ body: (TestDaemon) async throws -> T
    ) async throws -> T {
        let daemon = try TestDaemon(configure)
        try await prepare(daemon)
        try await daemon.start()
        let watchdog = Task {
            try await Task.sleep(for: timeLimit)
            Issue.record("still running after \(timeLimit): its daemon was stopped to end the test")
            await daemon.stop()
        }
        defer { watchdog.cancel() }
        return try await withClosing(daemon, close: { await $0.stop() }, body)
    }
}

/// Why a test daemon did not start.
enum TestDaemonError: Error, CustomStringConvertible {
    case stoppedBeforeReady(log: String)

    var description: String {
        switch self {
        case .stoppedBeforeReady(let log): "the daemon stopped before it was ready; its log:\n\(log)"
        }
    }
}

/// Who each client's socket address stands for; an address nobody registered (an unbound
/// client) is the owner, as photoctl would be.
private final class CallerBook: Sendable {
    private let book = Mutex<(next: Int, callers: [String: Caller])>((0, [:]))

    /// A new address in `folder` for a client connecting as `caller`.
    func address(for caller: Caller, in folder: String) throws -> String {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return book.withLock { book in
            book.next += 1
            let address = folder + "/\(book.next)"
            book.callers[address] = caller
            return address
        }
    }

    /// The caller a connection from `address` was made as.
    func caller(at address: String?) -> Caller {
        book.withLock { book in address.flatMap { book.callers[$0] } ?? TestDaemon.owner }
    }
}
