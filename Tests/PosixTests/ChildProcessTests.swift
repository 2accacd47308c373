import Glibc
import Posix
import Testing

/// posix_spawn as photod and the tests use it: the standard streams, the working folder, the
/// one passed descriptor and nothing else, and waiting with and without blocking.
@Suite struct ChildProcessTests {
    /// Runs `/bin/sh -c script` with its output in a pipe; the output and the exit status.
    private func shell(_ script: String, directory: String? = nil,
                       pass: (descriptor: Int32, as: Int32)? = nil) throws -> (output: String, status: Int32?) {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        let pid = try ChildProcess.spawn("/bin/sh", ["-c", script], directory: directory,
                                         streams: .init(output: ends[1]), pass: pass).get()
        close(ends[1])
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(ends[0], &buffer, buffer.count)
            guard count > 0 else { break }
            output += buffer[..<count]
        }
        close(ends[0])
        return (String(decoding: output, as: UTF8.self), ChildProcess.wait(pid))
    }

    @Test func theChildWritesToTheGivenOutputInTheGivenFolder() throws {
        let result = try shell("echo hello; pwd; exit 3", directory: "/usr/share")
        #expect(result.output == "hello\n/usr/share\n")
        #expect(result.status == 3)
    }

    /// Foundation's Process closed inherited descriptors by reading /proc/self/fd (and crashed
    /// doing it); closefrom in the child does it without a directory read.
    @Test func aDescriptorWithoutCloseOnExecDoesNotReachTheChild() throws {
        let leaky = open("/dev/null", O_RDONLY)
        try #require(leaky > 2)
        defer { close(leaky) }
        let result = try shell("if [ -e /proc/self/fd/\(leaky) ]; then echo open; else echo closed; fi")
        #expect(result.output == "closed\n")
    }

    @Test func thePassedDescriptorAloneIsKept() throws {
        let passed = open("/dev/null", O_RDONLY | O_CLOEXEC)
        let leaky = open("/dev/null", O_RDONLY)
        try #require(passed > 2 && leaky > 2)
        defer { close(passed); close(leaky) }
        let result = try shell("[ -e /proc/self/fd/3 ] && echo three; [ -e /proc/self/fd/4 ] && echo four; true",
                               pass: (passed, 3))
        #expect(result.output == "three\n")
    }

    @Test func aNonBlockingWaitSaysNilUntilTheChildEnds() throws {
        let pid = try ChildProcess.spawn("/bin/sleep", ["30"]).get()
        #expect(ChildProcess.wait(pid, blocking: false) == nil, "still sleeping")
        kill(pid, SIGKILL)
        #expect(ChildProcess.wait(pid) == SIGKILL, "a signal's number, as Foundation's terminationStatus says it")
        #expect(ChildProcess.wait(pid, blocking: false) == nil, "no longer a child")
    }

    @Test func aMissingProgramIsAnErrorNotAChild() {
        let result = ChildProcess.spawn("/nonexistent/program", [])
        #expect(throws: SpawnError.self) { try result.get() }
        if case .failure(let error) = result { #expect(error.errno == ENOENT) }
    }
}
