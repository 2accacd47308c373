import Foundation
import Testing

@testable import Varlink

/// An interface whose replies carry open files, for the descriptor-passing tests.
final class DescriptorService: Sendable {
    static let idl = """
        # Replies that carry file descriptors.
        interface org.example.fd

        # The file at path, opened read-only; padding adds that many bytes to the reply.
        method OpenFile(path: string, padding: ?int) -> (fileDescriptor: int, padding: ?string)
        method OpenTwo(first: string, second: string) -> (first: int, second: int)
        # A plain reply of that many bytes, to fill the socket ahead of a reply with descriptors.
        method Big(bytes: int) -> (padding: string)
        # Tries to attach one descriptor more than a reply may carry.
        method TooMany(path: string) -> ()
        # Tries to attach a descriptor that is not open.
        method NotOpen() -> ()
        method Stall(ms: int) -> ()
        # The contents of every file passed with the call, in order; the handler takes them.
        # padding makes the call that many bytes longer.
        method ReadPassed(padding: ?string) -> (contents: []string)
        # How many descriptors came with the call; the handler leaves them to the server.
        method CountPassed() -> (count: int)

        error TooMany (limit: int)
        """

    struct OpenFile: Codable, Sendable { var path: String; var padding: Int? = nil }
    struct Opened: Codable, Sendable { let fileDescriptor: Int; var padding: String? = nil }
    struct OpenTwo: Codable, Sendable { let first: String; let second: String }
    struct OpenedTwo: Codable, Sendable { let first: Int; let second: Int }
    struct Big: Codable, Sendable { var bytes: Int? = nil; var padding: String? = nil }
    struct Path: Codable, Sendable { let path: String }
    struct Limit: Codable, Sendable { let limit: Int }
    struct Millis: Codable, Sendable { let ms: Int }
    struct Contents: Codable, Sendable { let contents: [String] }
    struct Count: Codable, Sendable { let count: Int }

    var interface: VarlinkInterface {
        VarlinkInterface(name: "org.example.fd", description: Self.idl) { call, _, replier in
            try await self.handle(call, replier)
        }
    }

    private func handle(_ call: VarlinkCall, _ replier: VarlinkReplier) async throws {
        switch call.methodName {
        case "OpenFile":
            let request = try call.parameters(OpenFile.self)
            let padding = request.padding.map { String(repeating: "x", count: $0) }
            try await Self.withOpenFiles([request.path]) { descriptors in
                try await replier.reply(Opened(fileDescriptor: 0, padding: padding), fileDescriptors: descriptors)
            }
        case "OpenTwo":
            let request = try call.parameters(OpenTwo.self)
            try await Self.withOpenFiles([request.first, request.second]) { descriptors in
                try await replier.reply(OpenedTwo(first: 0, second: 1), fileDescriptors: descriptors)
            }
        case "Big":
            let bytes = try call.parameters(Big.self).bytes ?? 0
            try await replier.reply(Big(padding: String(repeating: "b", count: bytes)))
        case "TooMany":
            let path = try call.parameters(Path.self).path
            let limit = DescriptorPassing.maxPerMessage
            try await Self.withOpenFiles(Array(repeating: path, count: limit + 1)) { descriptors in
                do {
                    try await replier.reply(Empty(), fileDescriptors: descriptors)
                } catch VarlinkFileDescriptorError.tooMany(_, let limit) {
                    throw VarlinkError("org.example.fd.TooMany", parameters: Limit(limit: limit))
                }
            }
        case "NotOpen":
            // Lets the send error through: the server must still answer the call.
            try await replier.reply(Empty(), fileDescriptors: [Int32.max])
        case "Stall":
            try await Task.sleep(for: .milliseconds(try call.parameters(Millis.self).ms))
            try await replier.reply(Empty())
        case "ReadPassed":
            var contents: [String] = []
            for index in 0..<call.receivedFileDescriptorCount {
                guard let descriptor = call.takeFileDescriptor(index) else { throw VarlinkError.invalidParameter("fileDescriptor") }
                defer { close(descriptor) }
                contents.append(String(decoding: readAll(descriptor), as: UTF8.self))
            }
            try await replier.reply(Contents(contents: contents))
        case "CountPassed":
            try await replier.reply(Count(count: call.receivedFileDescriptorCount))
        default:
            throw VarlinkError.methodNotImplemented(call.method)
        }
    }

    /// Opens `paths` for the handler and closes them after it: a reply leaves the caller's
    /// descriptors the caller's.
    private static func withOpenFiles(_ paths: [String], _ body: ([Int32]) async throws -> Void) async throws {
        var descriptors: [Int32] = []
        defer { descriptors.forEach { _ = close($0) } }
        for path in paths {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw VarlinkError.invalidParameter("path") }
            descriptors.append(descriptor)
        }
        try await body(descriptors)
    }
}

/// A temporary file with random contents, removed with its folder by `remove()`.
struct TemporaryFile {
    let path: String
    let contents: [UInt8]

    init(bytes: Int = 4096) throws {
        try self.init(contents: (0..<bytes).map { _ in UInt8.random(in: 0...255) })
    }

    init(contents: [UInt8]) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vl-fd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        self.path = folder.appendingPathComponent("file").path
        self.contents = contents
        try Data(self.contents).write(to: URL(fileURLWithPath: self.path))
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: (self.path as NSString).deletingLastPathComponent)
    }

    /// Whether no descriptor of this process is open on the file within `seconds`: the server
    /// closes its own right after the reply, which may be just after the client has it.
    func isClosedEverywhere(within seconds: Double = 5) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while self.openDescriptorCount > 0 && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        return self.openDescriptorCount == 0
    }

    /// How many of this process's descriptors are open on this file.
    var openDescriptorCount: Int {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return entries.filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == self.path }.count
    }
}

/// Everything left to read on `descriptor`, from its start.
func readAll(_ descriptor: Int32) -> [UInt8] {
    var contents: [UInt8] = []
    var block = [UInt8](repeating: 0, count: 65536)
    var offset: off_t = 0
    while true {
        let count = block.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
        guard count > 0 else { return contents }
        contents += block[..<count]
        offset += off_t(count)
    }
}

/// Runs blocking client code on a thread of its own: blocked, one of the concurrency pool's two
/// threads would be missing from the in-process server. It stays in the calling task (through a
/// task executor), so its expectations count for the test that runs it.
func onOwnThread<T: Sendable>(_ body: () throws -> T) async throws -> T {
    let executor = OwnThreadExecutor()
    defer { executor.stop() }
    return try await withTaskExecutorPreference(executor) { try body() }
}

/// A task executor with one thread of its own, which ends once stopped and idle.
private final class OwnThreadExecutor: TaskExecutor, @unchecked Sendable {
    // Guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopped = false

    init() {
        let thread = Thread { [self] in self.run() }
        thread.name = "blocking varlink client"
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        self.condition.lock()
        self.jobs.append(job)
        self.condition.signal()
        self.condition.unlock()
    }

    func stop() {
        self.condition.lock()
        self.stopped = true
        self.condition.signal()
        self.condition.unlock()
    }

    private func run() {
        while true {
            self.condition.lock()
            while self.jobs.isEmpty && !self.stopped {
                self.condition.wait()
            }
            guard !self.jobs.isEmpty else {
                self.condition.unlock()
                return
            }
            let job = self.jobs.removeFirst()
            self.condition.unlock()
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}
