#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Posix
import SystemPackage

/// Runs another program found on PATH with arguments given as exact bytes (a path need not be
/// UTF-8, which Foundation's Process cannot pass), and waits for it.
enum ProgramRunner {
    /// The executable `name` in the first PATH folder that has one, like the shell finds it.
    static func find(_ name: String, path: String? = StartEnvironment.variables["PATH"]) -> String? {
        // A name with a slash was never looked up on PATH here.
        name.contains("/") ? nil : ExecutablePath.find(name, path: path)
    }

    /// Runs `program` with `arguments` (argv[1...], each passed whole) and returns its wait
    /// status; throws the errno when it cannot be started.
    static func run(_ program: String, _ arguments: [[UInt8]]) throws(ProgramRunError) -> Int32 {
        let pid = try spawn(program, arguments)
        return try wait(for: pid, program: program)
    }

    /// Starts `program` with `arguments` and this process's environment, `input` (when given;
    /// else /dev/null) as its standard input, and returns its pid. photoctl ignores SIGPIPE
    /// (see PhotoctlMain); the child gets the default back, and no blocked signals, as if
    /// started from a shell.
    static func spawn(_ program: String, _ arguments: [[UInt8]], input: Int32? = nil) throws(ProgramRunError) -> pid_t {
        switch ChildProcess.spawn(program, bytes: arguments, streams: .init(input: input), defaultSignals: [SIGPIPE]) {
        case .success(let pid): return pid
        case .failure(let failure): throw ProgramRunError(program: program, errno: failure.errno)
        }
    }

    /// Waits for the child `pid` to end and returns its wait status.
    static func wait(for pid: pid_t, program: String) throws(ProgramRunError) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw ProgramRunError(program: program, errno: errno) }
        }
        return status
    }

    /// "exited with status N" or "was killed by signal N" for a wait status.
    static func describe(waitStatus status: Int32) -> String? {
        let signal = status & 0x7f
        if signal == 0 {
            let code = (status >> 8) & 0xff
            return code == 0 ? nil : "exited with status \(code)"
        }
        return "was killed by signal \(signal)"
    }
}

/// A program could not be started or waited for.
struct ProgramRunError: Error, CustomStringConvertible {
    let program: String
    let errno: Int32

    var description: String { "cannot run \(program): \(Errno(rawValue: errno))" }
}
