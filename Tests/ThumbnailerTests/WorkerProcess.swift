import Foundation
import Glibc
import PhotoTestSupport
import Posix
import ThumbnailProtocol

/// The built photod-thumbnailer, spawned as photod spawns it: its end of a socketpair as fd 3.
final class WorkerProcess: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible { let description: String }

    static var binary: String { Binaries.productsFolder.appendingPathComponent("photod-thumbnailer").path }

    let pid: pid_t
    let socket: Int32
    let stderrPath: String
    private var decoder = ThumbnailFrameDecoder<ThumbnailResponse>()
    private var pending: [ThumbnailResponse] = []
    private var closed = false

    /// Spawns the worker with `environment` added to ours and `arguments`; its stderr goes to a file in `folder`.
    init(in folder: TemporaryDirectory, environment: [String: String] = [:], arguments: [String] = []) throws {
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw Failure(description: "socketpair: \(errno)")
        }
        stderrPath = folder.file("worker-stderr-\(pair[0])")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 onto 3 clears close-on-exec, so fd 3 is the only end the worker inherits.
        posix_spawn_file_actions_adddup2(&actions, pair[1], 3)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { $1 }
        let argv = ([strdup("photod-thumbnailer")] + arguments.map { strdup($0) }) + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, Self.binary, &actions, nil, argv, envp)
        close(pair[1])
        guard result == 0 else {
            close(pair[0])
            throw Failure(description: "posix_spawn \(Self.binary): \(result)")
        }
        pid = child
        socket = pair[0]
    }

    /// A worker spawned in `folder` whose hello has been read, ready for requests.
    static func ready(in folder: TemporaryDirectory) async throws -> WorkerProcess {
        let worker = try WorkerProcess(in: folder)
        _ = try await worker.receive()
        return worker
    }

    deinit {
        if !closed { close(socket) }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }

    /// Sends `request` with `path` opened read-only, as photod does.
    func send(_ request: ThumbnailRequest, file path: String) throws {
        let file = open(path, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { throw Failure(description: "open \(path): \(errno)") }
        defer { close(file) }
        try FrameSocket.send(request.encode(), on: socket, passing: file)
    }

    /// Sends raw bytes with no descriptor (for framing errors).
    func sendRaw(_ bytes: [UInt8]) throws { try FrameSocket.send(bytes, on: socket) }

    /// The next response, waiting at most `timeout` seconds on a thread of its own (a wait
    /// here must not hold one of Swift's concurrency threads while other tests run).
    func receive(timeout: Int32 = 60) async throws -> ThumbnailResponse {
        try await DetachedThread.result(name: "test-worker") { Result { try self.receiveHere(timeout: timeout) } }.get()
    }

    private func receiveHere(timeout: Int32) throws -> ThumbnailResponse {
        while pending.isEmpty {
            var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, timeout * 1000) == 1 else { throw Failure(description: "no response in \(timeout) s") }
            let chunk = try FrameSocket.receive(on: socket, maxDescriptors: 0)
            if chunk.bytes.isEmpty { throw Failure(description: "worker closed the socket") }
            pending += try decoder.feed(chunk.bytes)
        }
        return pending.removeFirst()
    }

    /// Sends one request and waits for its response.
    func thumbnail(_ request: ThumbnailRequest, file path: String) async throws -> ThumbnailResponse {
        try send(request, file: path)
        return try await receive()
    }

    /// Closes our end and returns the worker's exit status (or 128 + signal), waiting at most `timeout` seconds.
    func closeAndWait(timeout: Double = 30) async -> Int32 {
        close(socket)
        closed = true
        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        while Date() < deadline {
            if waitpid(pid, &status, WNOHANG) == pid {
                let signal = status & 0x7F
                return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
            }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return -1
    }

    /// What the worker wrote to stderr so far.
    var stderrText: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "<unreadable>" }
}
