#if canImport(Glibc)
import Glibc
#endif

/// Starts another program with posix_spawn and waits for it, without Foundation's `Process`
/// (which would link Foundation's full and ICU libraries into the program that starts it).
public enum ChildProcess {
    /// Starts `executable` (a path) with `arguments` (argv[1...]) and this process's
    /// environment, /dev/null as standard input, standard output and error shared (every other
    /// descriptor here is close-on-exec), default signal handling and no blocked signals; returns
    /// its pid, or the errno posix_spawn failed with.
    public static func spawn(_ executable: String, _ arguments: [String]) -> Result<Int32, SpawnError> {
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        var argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) }
        argv.append(nil)
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        return result == 0 ? .success(pid) : .failure(SpawnError(executable: executable, errno: result))
    }

    /// Waits for the child `pid` to end; its exit status, or the number of the signal that
    /// ended it (as Foundation's `Process.terminationStatus` says it), or nil when `pid` is not
    /// a child of this process.
    public static func wait(_ pid: Int32) -> Int32? {
        var status: Int32 = 0
        var result: pid_t
        repeat {
            result = waitpid(pid, &status, 0)
        } while result < 0 && errno == EINTR
        // WIFEXITED and WEXITSTATUS are macros Swift cannot import.
        guard result == pid else { return nil }
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : status & 0x7F
    }

    /// Starts `executable` and waits for it on a thread of its own (a terminal may stay open
    /// for hours; no thread of Swift's pool is held); its status as `wait` says it, or nil
    /// when it could not be started.
    public static func run(_ executable: String, _ arguments: [String]) async -> Int32? {
        guard case .success(let pid) = spawn(executable, arguments) else { return nil }
        return await withCheckedContinuation { (done: CheckedContinuation<Int32?, Never>) in
            let started = DetachedThread.start(name: "child-wait") { done.resume(returning: wait(pid)) }
            // No thread to wait on: reap it here rather than leave a zombie.
            if !started { done.resume(returning: wait(pid)) }
        }
    }
}

/// A program could not be started.
public struct SpawnError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The program's path.
    public let executable: String
    /// posix_spawn's error number.
    public let errno: Int32

    public var description: String { "cannot start \(executable): \(String(cString: strerror(errno)))" }
}
