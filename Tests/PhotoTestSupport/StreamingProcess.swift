import Foundation

/// A long-running child whose output lines are read while it runs (a streaming client).
/// Output goes to files, which (unlike a pipe read through Foundation) never stops delivering.
public final class StreamingProcess: @unchecked Sendable {
    private let process: TestChild
    private let outFile: String
    private let errFile: String

    /// Starts `executable` with `arguments`; output is collected under `directory`.
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                directory: TemporaryDirectory, name: String) throws {
        outFile = directory.file(name + ".out")
        errFile = directory.file(name + ".err")
        for file in [outFile, errFile] { _ = FileManager.default.createFile(atPath: file, contents: nil) }
        process = try TestChild(executable, arguments, environment: environment, output: .file(outFile),
                                error: .file(errFile))
    }

    /// Complete lines written to standard output so far.
    public var lines: [String] {
        let text = (try? String(contentsOfFile: outFile, encoding: .utf8)) ?? ""
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        if !text.hasSuffix("\n"), !lines.isEmpty { lines.removeLast() }
        return lines
    }

    /// Standard output lines parsed as JSON objects (other lines are skipped).
    public var objects: [[String: Any]] {
        lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// What the child wrote to standard error so far.
    public var stderr: String { (try? String(contentsOfFile: errFile, encoding: .utf8)) ?? "" }

    public var isRunning: Bool { process.isRunning }

    /// The child's pid (also the pid of whatever it execs in place).
    public var pid: Int32 { process.pid }

    /// Waits until `condition` holds for the output (read again every 20 ms), or `timeout`
    /// passes; returns whether it held.
    @discardableResult
    public func wait(timeout: TimeInterval = 10, until condition: (StreamingProcess) -> Bool) async -> Bool {
        await eventually(within: timeout) { condition(self) }
    }

    /// Waits for the child to exit by itself; its status, or nil after `timeout`.
    public func exitStatus(timeout: TimeInterval = 10) async -> Int32? {
        await process.exited(within: .seconds(timeout))
    }

    /// Kills the child (SIGKILL: it may ignore SIGTERM) and waits for its end.
    public func kill() async {
        await process.kill()
    }

    /// Kills the child without waiting (its waiter thread reaps it): for a `defer`, which
    /// cannot await.
    public func end() {
        process.signal(SIGKILL)
    }

}
