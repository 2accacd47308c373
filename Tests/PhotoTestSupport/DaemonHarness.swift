import Foundation
import Posix

/// A real `photod` on a temporary library, socket and database, for integration tests.
public final class DaemonHarness: @unchecked Sendable {
    public let dir: TemporaryDirectory
    /// The library root.
    public let library: String
    public let socket: String
    public let database: String
    /// Everything photod wrote to standard error so far.
    public var log: String {
        (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? ""
    }

    private var process: TestChild?
    /// Variables photod alone gets besides `environment`, set before `start` (test knobs such as
    /// `PHOTOD_TEST_READ_DELAY_MS`); photoctl does not get them.
    public var daemonEnvironment: [String: String] = [:]
    /// A program photod is started through, with its arguments (`setpriv` dropping a
    /// capability); it must exec photod in its own process, so the pid stays photod's.
    public var launcher: [String] = []
    /// photod's output goes to a file: a pipe read through Foundation's readability handler
    /// was seen to stop delivering once the daemon had been running for a while.
    private var logFile: String { dir.file("photod.log") }
    private var extraArguments: [String]

    /// Programs most tests drive the daemon with, trusted as the owner so that they see the
    /// whole library: this test process (PhotoClient) and the Python varlink clients the tests
    /// run. Authorization tests pass `trusted: []`, leaving only photoctl as the owner.
    public static var defaultTrusted: [String] {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? "/nonexistent"
        return ["exe:" + me, "module:*:varlink.cli", "exe:*/python3*", "script:*/watch_changes.py"]
    }

    /// Prepares (but does not start) a daemon over a fresh library folder. Its config file
    /// holds `settings` (top-level TOML lines), then `trusted` and `permissions` in `[permissions]`.
    public init(arguments: [String] = [], settings: String = "", trusted: [String] = DaemonHarness.defaultTrusted,
                permissions: String = "") throws {
        dir = try TemporaryDirectory()
        library = dir.file("library")
        socket = dir.file("run/photod/io.photod")
        database = dir.file("state/index.sqlite")
        extraArguments = arguments
        try FileManager.default.createDirectory(atPath: library, withIntermediateDirectories: true)
        try writeConfig(settings: settings, trusted: trusted, permissions: permissions)
    }

    /// Writes the daemon's config file (read again at every start).
    public func writeConfig(settings: String = "", trusted: [String], permissions: String = "") throws {
        let list = trusted.map { "\"\($0)\"" }.joined(separator: ", ")
        let text = "\(settings)\n[permissions]\ntrusted = [\(list)]\n\(permissions)\n"
        try dir.write("config/photod/photod.toml", Array(text.utf8))
    }

    /// A second daemon over another harness's library, socket and database (for restarts
    /// with different flags); the other harness keeps owning the folder.
    public init(reusing other: DaemonHarness, arguments: [String]) throws {
        dir = other.dir
        library = other.library
        socket = other.socket
        database = other.database
        extraArguments = arguments
    }

    /// Environment that keeps photod and photoctl away from the real user's config and socket,
    /// and from a `COLUMNS` the test runner's shell exported (photoctl's tables would fit it):
    /// a test that wants a width sets it.
    public var environment: [String: String] {
        ["XDG_CONFIG_HOME": dir.file("config"), "XDG_STATE_HOME": dir.file("state"),
         "XDG_CACHE_HOME": dir.file("cache"),
         "XDG_RUNTIME_DIR": dir.file("run"), "PHOTOD_SOCKET": socket, "HOME": dir.path, "COLUMNS": ""]
    }

    /// Writes `bytes` as `relativePath` inside the library.
    @discardableResult
    public func add(_ relativePath: String, _ bytes: [UInt8]) throws -> String {
        try dir.write("library/" + relativePath, bytes)
    }

    /// Held while any daemon starts, so a test that lowers the machine-wide inotify queue
    /// limit for its own daemon never hands that limit to another test's daemon.
    private static let startGate = AsyncGate()
    static let inotifyQueueLimit = "/proc/sys/fs/inotify/max_queued_events"

    /// True when this process may lower fs.inotify.max_queued_events (it runs as root).
    public static var canLowerInotifyQueue: Bool { FileManager.default.isWritableFile(atPath: inotifyQueueLimit) }

    /// Starts photod and waits for its `READY=1` (sent once the start-up reconcile is done,
    /// also when a root is away and it runs degraded). With `inotifyQueueLimit`, photod's
    /// inotify instance gets that queue size: the sysctl is lowered only while this daemon
    /// starts, and restored before any other daemon may start.
    public func start(timeout: TimeInterval = 60, inotifyQueueLimit: Int? = nil) async throws {
        try await Self.startGate.run(exclusive: inotifyQueueLimit != nil) {
            // Another test process may start daemons too (a developer's second `swift test`):
            // it shares the machine-wide limit, so a daemon with a lowered queue starts alone.
            let machineWide = try await StartFileLock.take(exclusive: inotifyQueueLimit != nil)
            defer { machineWide.release() }
            var original: String?
            if let limit = inotifyQueueLimit {
                original = try String(contentsOfFile: Self.inotifyQueueLimit, encoding: .utf8)
                try "\(limit)\n".write(toFile: Self.inotifyQueueLimit, atomically: false, encoding: .utf8)
            }
            defer {
                if let original { try? original.write(toFile: Self.inotifyQueueLimit, atomically: false, encoding: .utf8) }
            }
            try await launch(timeout: timeout)
        }
    }

    private func launch(timeout: TimeInterval) async throws {
        // The socket is made anew for each start and closed once photod is ready: later
        // status lines then fail at once instead of queueing where nobody reads.
        let notify = try NotifySocket(path: dir.file("notify"))
        var environment = environment.merging(daemonEnvironment) { _, knob in knob }
        environment["NOTIFY_SOCKET"] = notify.path
        let arguments = ["--root", library, "--database", database, "--socket", socket] + extraArguments
        let process = try TestChild(launcher.first ?? Binaries.photod,
                                    launcher.isEmpty ? arguments : launcher.dropFirst() + [Binaries.photod] + arguments,
                                    environment: environment, output: .file(logFile), error: .file(logFile))
        self.process = process
        switch await notify.waitForReady(of: process, timeout: timeout) {
        case .ready: return
        case .exited(let status): throw HarnessError.exited(status, log)
        case .timedOut: throw HarnessError.notReady(log)
        }
    }

    /// Waits until photod's log contains `text` (it is written to a file, read again every 10 ms).
    public func logContains(_ text: String, timeout: TimeInterval = 5) async -> Bool {
        await eventually(within: timeout, every: .milliseconds(10)) { log.contains(text) }
    }

    /// Runs photoctl against this daemon.
    public func photoctl(_ arguments: [String]) async throws -> ProcessResult {
        try await ProcessRunner.run(Binaries.photoctl, arguments, environment: environment)
    }

    /// Runs photoctl and parses its JSON output, failing on a non-zero status.
    public func photoctlJSON(_ arguments: [String]) async throws -> [String: Any] {
        let result = try await photoctl(arguments + ["--json"])
        guard result.status == 0 else { throw HarnessError.commandFailed(arguments, result.status, result.stderr) }
        return try result.json()
    }

    /// The pid of the running daemon.
    public var pid: Int32? { process?.pid }

    /// True while photod runs.
    public var isRunning: Bool { process?.isRunning ?? false }

    /// Sends `signal` to the running daemon (SIGHUP: reload the config).
    public func send(_ signal: Int32) {
        process?.signal(signal)
    }

    /// Sends SIGTERM and waits for the exit status (SIGKILL after `timeout`).
    @discardableResult
    public func stop(timeout: Duration = .seconds(30)) async -> Int32? {
        await process?.stop(grace: timeout)
    }

    /// Kills the daemon with SIGKILL, as a crash or the OOM killer would (no clean-up runs),
    /// and waits for its end; its status.
    @discardableResult
    public func kill() async -> Int32? {
        await process?.kill()
    }

    deinit {
        // A test that did not stop its daemon gets it stopped as `stop` would; deinit cannot
        // await, so a task does.
        guard let process, process.isRunning else { return }
        Task { await process.stop(grace: .seconds(30)) }
    }
}

/// Why the harness could not get a daemon going.
public enum HarnessError: Error, CustomStringConvertible {
    case exited(Int32, String)
    case notReady(String)
    case commandFailed([String], Int32, String)

    public var description: String {
        switch self {
        case .exited(let status, let log): return "photod exited with \(status):\n\(log)"
        case .notReady(let log): return "photod did not become ready:\n\(log)"
        case .commandFailed(let args, let status, let stderr): return "photoctl \(args) exited \(status): \(stderr)"
        }
    }
}

/// A lock every test process takes while it starts a daemon: `flock` on a file in /tmp,
/// shared for an ordinary start, exclusive for one that lowers a machine-wide limit.
private struct StartFileLock: Sendable {
    private let descriptor: Int32

    /// Takes the lock on a thread of its own (flock blocks).
    static func take(exclusive: Bool) async throws -> StartFileLock {
        let descriptor = open("/tmp/photod-tests-daemon-start.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw HarnessError.notReady("cannot open the daemon start lock: errno \(errno)") }
        await DetachedThread.result(name: "test-flock") {
            while flock(descriptor, exclusive ? LOCK_EX : LOCK_SH) != 0 && errno == EINTR {}
        }
        return StartFileLock(descriptor: descriptor)
    }

    /// Releases the lock (closing the descriptor drops it).
    func release() {
        close(descriptor)
    }
}

/// Runs async bodies under a readers-writer rule: shared ones side by side, an exclusive one
/// alone, in arrival order for the exclusive ones.
actor AsyncGate {
    private var shared = 0
    private var exclusive = false
    private var waiting: [(exclusive: Bool, continuation: CheckedContinuation<Void, Never>)] = []

    /// Runs `body` once the gate admits it.
    func run<T: Sendable>(exclusive wantsExclusive: Bool, _ body: @Sendable () async throws -> T) async throws -> T {
        if !admits(wantsExclusive) || !waiting.isEmpty {
            await withCheckedContinuation { waiting.append((wantsExclusive, $0)) }
        } else {
            take(wantsExclusive)
        }
        defer { leave(wantsExclusive) }
        return try await body()
    }

    private func admits(_ wantsExclusive: Bool) -> Bool {
        wantsExclusive ? !exclusive && shared == 0 : !exclusive
    }

    private func take(_ wantsExclusive: Bool) {
        if wantsExclusive { exclusive = true } else { shared += 1 }
    }

    private func leave(_ wantsExclusive: Bool) {
        if wantsExclusive { exclusive = false } else { shared -= 1 }
        // Wake waiters in order while the first of them is admitted; the gate is taken for them.
        while let first = waiting.first, admits(first.exclusive) {
            waiting.removeFirst()
            take(first.exclusive)
            first.continuation.resume()
        }
    }
}
