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

/// Runs programs for tests, with a deadline so a hang fails the test instead of the run. Every
/// wait happens on threads of its own, so any number of runs can go on side by side in one
/// test process without starving Swift's concurrency threads.
public enum ProcessRunner {
    /// Runs `executable` with `arguments`, feeding nothing on standard input; killed when it
    /// still runs after `timeout`.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                           timeout: TimeInterval = 60) async throws -> ProcessResult {
        let child = try TestChild(executable, arguments, environment: environment, output: .pipe, error: .pipe)
        let (output, error) = await child.readAll(timeout: timeout)
        // The pipes end with the child, so one still running here has outlived `timeout`.
        let status: Int32
        var stuck = ""
        if let ended = await child.exited(within: .seconds(1)) {
            status = ended
        } else {
            // Said before the kill, so a test failing on a hang shows where the child was stuck.
            stuck = "\n[ProcessRunner: killed after \(timeout) s; \(Self.whereStuck(child.pid))]"
            status = await child.kill()
        }
        return ProcessResult(status: status, stdout: String(decoding: output, as: UTF8.self),
                             stderr: String(decoding: error, as: UTF8.self) + stuck)
    }

    /// Each thread of `pid` with its state, kernel wait channel and system call, from /proc.
    static func whereStuck(_ pid: Int32) -> String {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        let threads = tasks.sorted().map { tid -> String in
            func read(_ name: String) -> String {
                ((try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/\(name)", encoding: .utf8)) ?? "?")
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }
            let state = read("status").split(separator: "\n").first { $0.hasPrefix("State:") }?
                .dropFirst("State:".count).trimmingCharacters(in: .whitespaces) ?? "?"
            return "thread \(tid) (\(read("comm"))) \(state), wchan \(read("wchan")), syscall \(read("syscall"))"
        }
        return threads.isEmpty ? "no threads in /proc" : threads.joined(separator: "; ")
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

    /// Reads or changes the value in place under the lock; what `body` returns.
    public func withLock<Result>(_ body: (inout Value) -> Result) -> Result { lock.withLock { body(&value) } }
}
