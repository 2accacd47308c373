#if canImport(Glibc)
import Glibc
#endif
import Posix

/// A worker process just started, and photod's end of the socket it answers on.
public struct SpawnedWorker: Sendable, Equatable {
    /// The worker's process id; the caller reaps it (`WorkerSpawn.wait`).
    public let pid: Int32
    /// photod's end of the socketpair (close-on-exec); the worker has the other end as fd 3.
    public let socket: Int32
}

/// Starts `photod-thumbnailer` processes with the socket as fd 3, /dev/null as stdin and stdout,
/// stderr shared (the journal), a clean signal state, and no other descriptor of photod's.
public enum WorkerSpawn {
    /// The descriptor the worker finds its socket on.
    public static let workerSocket: Int32 = 3

    /// Starts `executable` with `arguments` (argv[1...]) and `environment` ("KEY=value").
    public static func start(executable: String, arguments: [String], environment: [String])
        throws(ThumbnailSocketError) -> SpawnedWorker {
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw .system(call: "socketpair", errno: errno)
        }
        let (parent, child) = (pair[0], pair[1])
        defer { close(child) }
        // Every other descriptor of photod's is close-on-exec, and the worker closes anything
        // above 3 again before it reads a byte.
        switch ChildProcess.spawn(executable, arguments, environment: environment, quiet: true,
                                  pass: (descriptor: child, as: workerSocket)) {
        case .success(let pid):
            return SpawnedWorker(pid: pid, socket: parent)
        case .failure(let failure):
            close(parent)
            throw .system(call: "posix_spawn \(executable)", errno: failure.errno)
        }
    }

    /// Waits for `pid` to end and says how it ended.
    public static func wait(_ pid: Int32) -> WorkerExit {
        var status: Int32 = 0
        var result: pid_t
        repeat {
            result = waitpid(pid, &status, 0)
        } while result < 0 && errno == EINTR
        guard result == pid else { return WorkerExit(signal: nil, status: nil) }
        // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift cannot import.
        let signal = status & 0x7F
        return signal == 0 ? WorkerExit(signal: nil, status: (status >> 8) & 0xFF) : WorkerExit(signal: signal, status: nil)
    }
}

/// How a worker process ended.
public struct WorkerExit: Sendable, Equatable, CustomStringConvertible {
    /// The signal that ended it, if one did.
    public var signal: Int32?
    /// Its exit status, if it exited.
    public var status: Int32?

    /// Ended by a signal it raised itself by failing (a crash, an abort, its seccomp filter, its
    /// CPU limit), rather than one sent from outside (SIGKILL, SIGTERM).
    public var crashed: Bool {
        guard let signal else { return false }
        return [SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGSYS, SIGXCPU, SIGXFSZ, SIGTRAP].contains(signal)
    }

    public var description: String {
        if let signal {
            let names: [Int32: String] = [SIGKILL: "SIGKILL", SIGSEGV: "SIGSEGV", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS",
                                          SIGSYS: "SIGSYS", SIGXCPU: "SIGXCPU", SIGTERM: "SIGTERM"]
            return "killed by signal \(signal)" + (names[signal].map { " (\($0))" } ?? "")
        }
        if let status { return "exited with status \(status)" }
        return "ended (waitpid failed)"
    }
}
