import Foundation
import PhotoTestSupport
import Testing

/// The reference varlink certification (`varlink.tests.test_certification` from the Python
/// `varlink` package) both ways: Python's client against the Swift server, and the Swift client
/// against Python's server. Both programs run as child processes, waited for on dedicated threads.
@Suite("varlink certification against the Python reference", .timeLimit(.minutes(2)))
struct CertificationTests {
    /// The steps the certification client prints, in order.
    private static let steps = ["Start", "Test01", "Test02", "Test03", "Test04", "Test05", "Test06", "Test07", "Test08", "Test09"]

    /// Python's certification client against the Swift server, which checks every call.
    @Test("the reference Python client certifies the Swift server")
    func pythonClientAgainstSwiftServer() async throws {
        try await Certification.requirePythonVarlink()
        let folder = try Certification.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let socket = "\(folder)/s"

        let server = try Spawned(
            [try Certification.binary(), "server", "--socket", socket], outputIn: folder, name: "server"
        )
        defer { server.kill() }
        let listening = await server.waitForOutput("listening on unix:\(socket)", seconds: 30)
        try #require(listening, "the Swift certification server did not start: \(server.stderr)")

        let client = try Spawned(
            ["/usr/bin/env", "python3", "-m", "varlink.tests.test_certification", "--client", "--varlink=unix:\(socket)"],
            outputIn: folder, name: "client"
        )
        defer { client.kill() }
        let status = await client.wait(seconds: 60)
        let output = client.stdout
        // The reference prints a step's reply after it checked its type; a varlink error ends it
        // with a traceback instead, so its output is checked, not only its exit status.
        #expect(status == 0, "python client exit status \(String(describing: status)); stderr: \(client.stderr)")
        #expect(!client.stderr.contains("Traceback"), "\(client.stderr)")
        #expect(output.contains("Test10: {'string': 'Reply number 10'}"), "\(output)")
        #expect(output.contains("End: {'all_ok': True}"), "\(output)")
        #expect(output.hasSuffix("Certification passed\n"), "\(output)")

        // The server saw the same run through to End, under the id it gave the client.
        if status == 0 {
            let clientID = try #require(
                output.split(separator: "\n").first { $0.hasPrefix("client_id: ") }?.dropFirst("client_id: ".count),
                "no client_id in: \(output)"
            )
            let certified = await server.waitForOutput("certification passed for client \(clientID)", seconds: 10)
            #expect(certified, "server output: \(server.stdout) \(server.stderr)")
        }
        await server.stop()
    }

    /// The Swift certification client, which checks every reply, against Python's server.
    @Test("the Swift client passes against the reference Python server")
    func swiftClientAgainstPythonServer() async throws {
        try await Certification.requirePythonVarlink()
        let binary = try Certification.binary()
        let folder = try Certification.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let socket = "\(folder)/s"

        // -u: the reference server prints "Listening on" without flushing.
        let server = try Spawned(
            ["/usr/bin/env", "python3", "-u", "-m", "varlink.tests.test_certification", "--varlink=unix:\(socket)"],
            outputIn: folder, name: "server"
        )
        defer { server.kill() }
        let listening = await server.waitForOutput("Listening on", seconds: 30)
        try #require(listening, "the Python certification server did not start: \(server.stderr)")

        let client = try Spawned([binary, "client", "--address", "unix:\(socket)"], outputIn: folder, name: "client")
        defer { client.kill() }
        let status = await client.wait(seconds: 60)
        let lines = client.stdout.split(separator: "\n").map(String.init)
        #expect(status == 0, "swift client exit status \(String(describing: status)); stderr: \(client.stderr)")
        #expect(client.stderr.isEmpty, "\(client.stderr)")
        let stepLines = lines.filter { $0.hasPrefix("Start: ") || $0.hasPrefix("Test0") }
        #expect(stepLines.map { line in String(line.prefix { $0 != ":" }) } == Self.steps, "\(lines)")
        #expect(lines.filter { $0.hasPrefix("Test10: ") } == (1...10).map { "Test10: Reply number \($0)" }, "\(lines)")
        #expect(lines.suffix(3) == ["Test11: sent oneway", "End: AllOK(allOK: true)", "Certification passed"], "\(lines)")
        #expect(!server.stderr.contains("Traceback"), "python server: \(server.stderr)")
        await server.stop()
    }
}

/// Where the certification's parts are, and what they need.
private enum Certification {
    /// Fails the test, with the remedy, when python3 cannot import the reference package:
    /// the project's test command installs it, so its absence is a broken setup, not a skip.
    static func requirePythonVarlink() async throws {
        let folder = try self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let probe = try Spawned(["/usr/bin/env", "python3", "-c", "import varlink.tests.test_certification"], outputIn: folder, name: "probe")
        defer { probe.kill() }
        let status = await probe.wait(seconds: 60)
        try #require(
            status == 0,
            """
            python3 cannot import the reference varlink package (exit \(String(describing: status))): \
            run scripts/install-deps --test, or python3 -m pip install varlink. \(probe.stderr)
            """
        )
    }

    /// The `varlink-certification` executable, built next to the test bundle.
    static func binary() throws -> String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var folder = URL(fileURLWithPath: executable)
        while folder.pathComponents.count > 1 {
            folder.deleteLastPathComponent()
            let candidate = folder.appendingPathComponent("varlink-certification").path
            if FileManager.default.isExecutableFile(atPath: candidate) {
                return candidate
            }
        }
        throw CertificationSetupError(description: "no varlink-certification executable near \(executable); build with --build-tests")
    }

    /// A new private folder for one test's socket and output files, short enough for sockaddr_un.
    static func temporaryFolder() throws -> String {
        let folder = "/tmp/vlc-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        return folder
    }
}

/// The certification cannot be run at all.
private struct CertificationSetupError: Error, CustomStringConvertible {
    let description: String
}

/// A child process with its output in files (a chatty child never blocks on a full pipe).
///
/// Every wait polls on a dedicated thread with a deadline: tests run in parallel on the
/// cooperative pool, which the servers these children talk to need too.
private final class Spawned: Sendable {
    private let process: TestChild
    private let stdoutPath: String
    private let stderrPath: String

    /// Starts `arguments[0]` with the rest as its arguments; output goes to `folder`/`name`.out and .err.
    init(_ arguments: [String], outputIn folder: String, name: String) throws {
        self.stdoutPath = "\(folder)/\(name).out"
        self.stderrPath = "\(folder)/\(name).err"
        for path in [self.stdoutPath, self.stderrPath] where !FileManager.default.createFile(atPath: path, contents: nil) {
            throw CertificationSetupError(description: "cannot create \(path)")
        }
        let process = try TestChild(arguments[0], Array(arguments.dropFirst()), output: .file(self.stdoutPath),
                                    error: .file(self.stderrPath))
        self.process = process
    }

    /// Everything the child wrote to standard output so far.
    var stdout: String { (try? String(contentsOfFile: self.stdoutPath, encoding: .utf8)) ?? "" }
    /// Everything the child wrote to standard error so far.
    var stderr: String { (try? String(contentsOfFile: self.stderrPath, encoding: .utf8)) ?? "" }

    /// The exit status, or nil when the child was still running after `seconds` (it is then killed).
    func wait(seconds: Double) async -> Int32? {
        let exited = await self.poll(seconds: seconds) { !self.process.isRunning }
        guard exited else {
            await self.stop()
            return nil
        }
        return self.process.status
    }

    /// Whether standard output came to contain `text` within `seconds`; false as soon as the child exits without it.
    func waitForOutput(_ text: String, seconds: Double) async -> Bool {
        _ = await self.poll(seconds: seconds) { self.stdout.contains(text) || !self.process.isRunning }
        return self.stdout.contains(text)
    }

    /// Kills the child if it still runs; never blocks, so it can run in a `defer`.
    func kill() {
        self.process.signal(SIGKILL)
    }

    /// Kills the child and waits (boundedly) until it is gone.
    func stop() async {
        self.kill()
        _ = await self.poll(seconds: 10) { !self.process.isRunning }
    }

    /// Checks `condition` every 10 ms on a dedicated thread until it holds or `seconds` pass.
    private func poll(seconds: Double, _ condition: @escaping @Sendable () -> Bool) async -> Bool {
        await withCheckedContinuation { continuation in
            Thread {
                let deadline = Date(timeIntervalSinceNow: seconds)
                while !condition() {
                    guard Date() < deadline else {
                        continuation.resume(returning: false)
                        return
                    }
                    usleep(10_000)
                }
                continuation.resume(returning: true)
            }.start()
        }
    }
}
