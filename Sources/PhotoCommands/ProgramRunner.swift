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

/// Runs another program found on PATH with arguments given as exact bytes (a path need not be
/// UTF-8, which Foundation's Process cannot pass), and waits for it.
enum ProgramRunner {
    /// The executable `name` in the first PATH folder that has one, like the shell finds it.
    static func find(_ name: String, path: String? = ProcessInfo.processInfo.environment["PATH"]) -> String? {
        for folder in (path ?? "").split(separator: ":", omittingEmptySubsequences: true) {
            let candidate = folder + "/" + name
            var status = stat()
            if stat(candidate, &status) == 0, status.st_mode & S_IFMT == S_IFREG, access(candidate, X_OK) == 0 {
                return candidate
            }
        }
        return nil
    }

    /// Runs `program` with `arguments` (argv[1...], each passed whole) and returns its wait
    /// status; throws the errno when it cannot be started.
    static func run(_ program: String, _ arguments: [[UInt8]]) throws(ProgramRunError) -> Int32 {
        let pid = try spawn(program, arguments)
        return try wait(for: pid, program: program)
    }

    /// Starts `program` with `arguments` and this process's environment, `input` (when given)
    /// as its standard input, and returns its pid. photoctl ignores SIGPIPE (see PhotoctlMain);
    /// the child gets the default back, and no blocked signals, as if started from a shell.
    static func spawn(_ program: String, _ arguments: [[UInt8]], input: Int32? = nil) throws(ProgramRunError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        if let input { posix_spawn_file_actions_adddup2(&actions, input, STDIN_FILENO) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let argv: [UnsafeMutablePointer<CChar>?] = ([Array(program.utf8)] + arguments).map { bytes in
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            for (index, byte) in bytes.enumerated() { copy[index] = CChar(bitPattern: byte) }
            copy[bytes.count] = 0
            return copy
        } + [nil]
        defer { for pointer in argv { pointer?.deallocate() } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, program, &actions, &attributes, argv, environ)
        guard spawned == 0 else { throw ProgramRunError(program: program, errno: spawned) }
        return pid
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

    var description: String { "cannot run \(program): \(String(cString: strerror(errno)))" }
}
