import Foundation
import Posix
import Synchronization

/// A child process for tests, started with posix_spawn (`Posix.ChildProcess`).
///
/// Not Foundation's `Process`: on Swift 6.3 its `run()` copies all 256 bytes of each
/// `/proc/self/fd` entry's `d_name`, past the end of glibc's readdir buffer, and the test
/// process crashed when that buffer ended at an unmapped page (swift-corelibs-foundation
/// pull request 5472). Tests start hundreds of children beside in-process daemons, so they
/// hit it under load.
public final class TestChild: @unchecked Sendable {
    /// Where one of the child's standard streams goes.
    public enum Stream: Sendable {
        /// /dev/null.
        case null
        /// This test process's own stream.
        case inherit
        /// A file, created if needed, appended to.
        case file(String)
        /// A pipe whose other end this object holds (`inputWriter`, `outputReader`, `errorReader`).
        case pipe
    }

    /// The child's pid.
    public let pid: Int32
    /// The write end of the child's standard input, when it is a pipe (closing it is EOF).
    public private(set) var inputWriter: Int32 = -1
    /// The read end of the child's standard output, when it is a pipe.
    public private(set) var outputReader: Int32 = -1
    /// The read end of the child's standard error, when it is a pipe.
    public private(set) var errorReader: Int32 = -1
    private let exit = ChildExit()

    /// Starts `executable` with `arguments`, this process's environment with `environment`
    /// laid over it, in `directory`, with the given standard streams.
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                directory: String? = nil, input: Stream = .null, output: Stream = .inherit,
                error: Stream = .inherit) throws {
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        var parentEnds: [Int32] = []
        var childEnds: [Int32] = []
        defer { childEnds.forEach { close($0) } }
        func descriptor(for stream: Stream, writing: Bool) throws -> Int32? {
            switch stream {
            case .inherit:
                return nil
            case .null:
                let fd = Glibc.open("/dev/null", (writing ? O_WRONLY : O_RDONLY) | O_CLOEXEC)
                guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
                childEnds.append(fd)
                return fd
            case .file(let path):
                let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
                guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
                childEnds.append(fd)
                return fd
            case .pipe:
                var ends: [Int32] = [-1, -1]
                // pipe2 is behind _GNU_SOURCE; a child spawned meanwhile closes what it inherits.
                guard pipe(&ends) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
                ends.forEach { _ = fcntl($0, F_SETFD, FD_CLOEXEC) }
                parentEnds.append(writing ? ends[0] : ends[1])
                childEnds.append(writing ? ends[1] : ends[0])
                return writing ? ends[1] : ends[0]
            }
        }
        let streams = ChildProcess.Streams(input: try descriptor(for: input, writing: false),
                                           output: try descriptor(for: output, writing: true),
                                           error: try descriptor(for: error, writing: true))
        switch ChildProcess.spawn(executable, arguments, environment: merged.map { "\($0.key)=\($0.value)" },
                                  directory: directory, streams: streams) {
        case .success(let pid):
            self.pid = pid
        case .failure(let failure):
            parentEnds.forEach { close($0) }
            throw POSIXError(.init(rawValue: failure.errno) ?? .EIO)
        }
        guard exit.watch(pid) else {
            Glibc.kill(pid, SIGKILL)
            _ = ChildProcess.wait(pid)
            parentEnds.forEach { close($0) }
            throw POSIXError(.EAGAIN)
        }
        var remaining = parentEnds[...]
        if case .pipe = input { inputWriter = remaining.removeFirst() }
        if case .pipe = output { outputReader = remaining.removeFirst() }
        if case .pipe = error { errorReader = remaining.removeFirst() }
    }

    /// The exit status (or the signal that ended it, as Foundation's `terminationStatus`
    /// says it) once the child has ended; nil while it runs.
    public var status: Int32? { exit.status }

    /// True while the child runs.
    public var isRunning: Bool { status == nil }

    /// Waits for the child to end; its status. Holds no thread: the child's own waiter thread
    /// resumes it.
    public func exited() async -> Int32 {
        await exit.wait(timeout: nil) ?? -1
    }

    /// Waits for the child to end; its status, or nil when it still ran after `timeout`.
    public func exited(within timeout: Duration) async -> Int32? {
        await exit.wait(timeout: timeout)
    }

    /// Sends `signal` while the child runs.
    public func signal(_ signal: Int32) {
        if isRunning { Glibc.kill(pid, signal) }
    }

    /// SIGTERM, then SIGKILL after `grace`; the status (always known: SIGKILL cannot be refused).
    @discardableResult
    public func stop(grace: Duration = .seconds(10)) async -> Int32 {
        signal(SIGTERM)
        if let status = await exited(within: grace) { return status }
        return await kill()
    }

    /// SIGKILL and a wait for the end; the status.
    @discardableResult
    public func kill() async -> Int32 {
        signal(SIGKILL)
        return await exited()
    }

    /// Closes the write end of the child's standard input: the child reads EOF.
    public func closeInput() {
        if inputWriter >= 0 { close(inputWriter) }
        inputWriter = -1
    }

    /// Closes the read end of the child's standard output: the child's writes fail (EPIPE).
    public func closeOutput() {
        if outputReader >= 0 { close(outputReader) }
        outputReader = -1
    }

    /// Reads standard output (a pipe) until `separator` or EOF; the bytes before it.
    public func readOutput(until separator: UInt8 = UInt8(ascii: "\n")) -> [UInt8] {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = Glibc.read(outputReader, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            guard count == 1, byte != separator else { return bytes }
            bytes.append(byte)
        }
    }

    /// `readOutput` on a thread of its own: an async test that blocked one of Swift's two
    /// concurrency threads here could starve the very client the child is waiting for.
    public func readOutputLine() async -> String {
        String(decoding: await DetachedThread.result(name: "test-read") { self.readOutput() }, as: UTF8.self)
    }

    /// Reads standard output and standard error (pipes) to EOF together, so a chatty child
    /// never blocks on a full pipe; gives up after `timeout`, or 5 s after the child ended (a
    /// grandchild that outlived it may hold the pipes open). The reads run on a thread of
    /// their own.
    public func readAll(timeout: TimeInterval) async -> (output: [UInt8], error: [UInt8]) {
        let pair = await DetachedThread.result(name: "test-read") { self.readAllHere(timeout: timeout) }
        return (pair.0, pair.1)
    }

    private func readAllHere(timeout: TimeInterval) -> ([UInt8], [UInt8]) {
        var collected: [[UInt8]] = [[], []]
        var open = [outputReader, errorReader]
        var deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var ended = false
        while open.contains(where: { $0 >= 0 }), Date() < deadline {
            if !ended, status != nil {
                ended = true
                deadline = min(deadline, Date().addingTimeInterval(5))
            }
            var polled = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            guard poll(&polled, nfds_t(polled.count), 100) >= 0 || errno == EINTR else { break }
            for index in polled.indices where polled[index].fd >= 0 && polled[index].revents != 0 {
                let count = Glibc.read(polled[index].fd, &buffer, buffer.count)
                if count > 0 {
                    collected[index] += buffer[..<count]
                } else if count == 0 || errno != EINTR {
                    open[index] = -1
                }
            }
        }
        return (collected[0], collected[1])
    }

    deinit {
        // The waiter thread reaps it.
        signal(SIGKILL)
        for fd in [inputWriter, outputReader, errorReader] where fd >= 0 { close(fd) }
    }
}

/// A child's end as something to await: one detached thread per child blocks in `waitpid`,
/// then resumes every waiter, so no wait holds a thread of Swift's pool.
final class ChildExit: Sendable {
    private struct State {
        var status: Int32?
        var waiters: [Int: (continuation: CheckedContinuation<Int32?, Never>, timer: Task<Void, Never>?)] = [:]
        var next = 0
    }
    private let state = Mutex(State())

    /// The status once the child has been reaped.
    var status: Int32? { state.withLock { $0.status } }

    /// Starts the thread that reaps `pid`; false when no thread could be made.
    func watch(_ pid: Int32) -> Bool {
        DetachedThread.start(name: "test-waitpid") { [self] in finish(ChildProcess.wait(pid) ?? -1) }
    }

    private func finish(_ status: Int32) {
        let waiters = state.withLock { state in
            state.status = status
            defer { state.waiters = [:] }
            return state.waiters.values
        }
        for waiter in waiters {
            waiter.timer?.cancel()
            waiter.continuation.resume(returning: status)
        }
    }

    /// The status once the child ends, or nil when `timeout` passes first.
    func wait(timeout: Duration?) async -> Int32? {
        await withCheckedContinuation { continuation in
            state.withLock { state in
                if let status = state.status { return continuation.resume(returning: status) }
                let id = state.next
                state.next += 1
                let timer = timeout.map { timeout in
                    Task { [self] in
                        try? await Task.sleep(for: timeout)
                        expire(id)
                    }
                }
                state.waiters[id] = (continuation, timer)
            }
        }
    }

    private func expire(_ id: Int) {
        state.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume(returning: nil)
    }
}
