#if canImport(Glibc)
import Glibc
#endif

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

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 clears close-on-exec on fd 3 only; every other descriptor of photod's is
        // close-on-exec, and the worker closes anything above 3 again before it reads a byte.
        posix_spawn_file_actions_adddup2(&actions, child, workerSocket)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var pid: pid_t = 0
        let argv = [executable] + arguments
        let result = withCStrings(argv) { argvPointers in
            withCStrings(environment) { environmentPointers in
                posix_spawn(&pid, executable, &actions, &attributes, argvPointers, environmentPointers)
            }
        }
        guard result == 0 else {
            close(parent)
            throw .system(call: "posix_spawn \(executable)", errno: result)
        }
        return SpawnedWorker(pid: pid, socket: parent)
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

    /// NULL-terminated C string arrays for posix_spawn, valid inside `body`.
    private static func withCStrings<R>(_ strings: [String],
                                        _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
        pointers.append(nil)
        defer { pointers.forEach { free($0) } }
        return body(pointers)
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
