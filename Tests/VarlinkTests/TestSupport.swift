import Foundation
import Logging
import NIOCore
import NIOPosix
import Synchronization
import Testing

@testable import Varlink

/// A fresh socket path under /tmp, short enough for sockaddr_un.
func temporarySocketPath(_ name: String = "s") -> String {
    let folder = "/tmp/vl-\(getpid())-\(UUID().uuidString.prefix(8))"
    return "\(folder)/\(name)"
}

func removeSocketFolder(of path: String) {
    try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
}

struct TimeoutError: Error, CustomStringConvertible {
    let seconds: Double
    var description: String { "timed out after \(self.seconds) s" }
}

/// Runs `body`, failing with TimeoutError when it takes longer than `seconds`.
func withTimeout<T: Sendable>(
    _ seconds: Double,
    _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            throw TimeoutError(seconds: seconds)
        }
        defer { group.cancelAll() }
        guard let result = try await group.next() else { throw TimeoutError(seconds: seconds) }
        return result
    }
}

/// Collects what the server logs, so tests can check that violations are logged with a reason.
final class LogRecorder: Sendable {
    struct Entry: Sendable {
        let level: Logger.Level
        let message: String
        let metadata: [String: String]
    }

    private let entries = Mutex<[Entry]>([])

    var all: [Entry] { self.entries.withLock { $0 } }

    func logger() -> Logger {
        var logger = Logger(label: "varlink-test") { _ in RecordingHandler(recorder: self) }
        logger.logLevel = .debug
        return logger
    }

    fileprivate func append(_ entry: Entry) {
        self.entries.withLock { $0.append(entry) }
    }
}

private struct RecordingHandler: LogHandler {
    let recorder: LogRecorder
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .debug

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { self.metadata[key] }
        set { self.metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var merged = self.metadata
        if let extra = event.metadata {
            merged.merge(extra) { _, new in new }
        }
        self.recorder.append(
            .init(level: event.level, message: "\(event.message)", metadata: merged.mapValues { "\($0)" })
        )
    }
}

struct Empty: Codable, Sendable, Equatable {}

/// A started server whose run() task is cancelled by `stop()`.
final class RunningServer: Sendable {
    let server: VarlinkServer
    let path: String
    let log: LogRecorder
    private let task: Task<Void, any Error>

    private init(server: VarlinkServer, path: String, log: LogRecorder, task: Task<Void, any Error>) {
        self.server = server
        self.path = path
        self.log = log
        self.task = task
    }

    static func start(
        interfaces: [VarlinkInterface],
        configuration: VarlinkServer.Configuration = .init(),
        path: String = temporarySocketPath()
    ) async throws -> RunningServer {
        let log = LogRecorder()
        let server = VarlinkServer(
            listener: .path(path),
            interfaces: interfaces,
            info: VarlinkServiceInfo(vendor: "photod project", product: "varlink-tests", version: "1.0", url: "https://example.org"),
            configuration: configuration,
            logger: log.logger()
        )
        try await server.start()
        let task = Task { try await server.run() }
        return RunningServer(server: server, path: path, log: log, task: task)
    }

    /// Cancels run() and waits for it to return.
    func stop() async throws {
        self.task.cancel()
        try await withTimeout(10) { try await self.task.value }
        removeSocketFolder(of: self.path)
    }
}

/// The read side of a raw connection: whole messages, or nil once the server closed it.
struct RawReader {
    var iterator: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    var decoder = VarlinkFrameDecoder(maxMessageBytes: 64 << 20)

    mutating func next() async throws -> [UInt8]? {
        while true {
            if let frame = try self.decoder.nextFrame() {
                return frame
            }
            guard let buffer = try await self.iterator.next() else { return nil }
            self.decoder.append(buffer.readableBytesView)
        }
    }

    /// The next message as a JSON object, or nil at end of stream.
    mutating func nextObject() async throws -> [String: Any]? {
        guard let frame = try await self.next() else { return nil }
        return try JSONSerialization.jsonObject(with: Data(frame)) as? [String: Any]
    }

    /// True when the server closes the connection without sending anything more.
    mutating func isClosedByServer() async -> Bool {
        do {
            return try await self.next() == nil
        } catch {
            // A reset also means the server closed it.
            return true
        }
    }
}

/// Runs `body` with a raw connection to `path`, for what VarlinkClient would never send.
func withRawConnection<T>(
    _ path: String,
    _ body: (inout RawReader, NIOAsyncChannelOutboundWriter<ByteBuffer>) async throws -> T
) async throws -> T {
    let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        .connect(unixDomainSocketPath: path) { channel in
            channel.eventLoop.makeCompletedFuture {
                try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
            }
        }
    return try await channel.executeThenClose { inbound, outbound in
        var reader = RawReader(iterator: inbound.makeAsyncIterator())
        return try await body(&reader, outbound)
    }
}

extension NIOAsyncChannelOutboundWriter<ByteBuffer> {
    /// Writes `text` followed by the NUL terminator.
    func send(_ text: String) async throws {
        try await self.write(ByteBuffer(bytes: Array(text.utf8) + [0]))
    }

    func sendBytes(_ bytes: [UInt8]) async throws {
        try await self.write(ByteBuffer(bytes: bytes))
    }
}
