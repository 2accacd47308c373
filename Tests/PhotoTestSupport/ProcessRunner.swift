import Foundation

/// The result of running a program to completion.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String

    /// A result assembled by hand (from files a child wrote).
    public init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }

    /// Standard output parsed as a JSON object.
    public func json() throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(stdout.utf8))
        guard let dictionary = object as? [String: Any] else { throw CocoaError(.propertyListReadCorrupt) }
        return dictionary
    }
}

/// Runs programs for tests, with a deadline so a hang fails the test instead of the run.
public enum ProcessRunner {
    /// Runs `executable` with `arguments`, feeding nothing on standard input.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                           timeout: TimeInterval = 60) throws -> ProcessResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Drain both pipes concurrently so a chatty child never blocks on a full pipe.
        let outData = Mutexed(Data())
        let errData = Mutexed(Data())
        let group = DispatchGroup()
        for (pipe, sink) in [(out, outData), (err, errData)] {
            group.enter()
            DispatchQueue.global().async {
                sink.set(pipe.fileHandleForReading.readDataToEndOfFile())
                group.leave()
            }
        }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        if process.isRunning {
            process.terminate()
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        // A grandchild that outlived the child can hold the pipes open: do not wait for it forever.
        _ = group.wait(timeout: .now() + 5)
        return ProcessResult(status: process.terminationStatus,
                             stdout: String(decoding: outData.get(), as: UTF8.self),
                             stderr: String(decoding: errData.get(), as: UTF8.self))
    }
}

/// A value behind a lock, for collecting results from other threads in tests.
public final class Mutexed<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    /// Wraps `value`.
    public init(_ value: Value) { self.value = value }

    /// Reads the value.
    public func get() -> Value { lock.withLock { value } }

    /// Replaces the value.
    public func set(_ newValue: Value) { lock.withLock { value = newValue } }

    /// Changes the value in place.
    public func update(_ body: (inout Value) -> Void) { lock.withLock { body(&value) } }
}
