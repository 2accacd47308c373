#if canImport(Glibc)
import Glibc
#endif

/// Starts another program with posix_spawn and waits for it, without Foundation's `Process`
/// (which would link Foundation's full and ICU libraries into the program that starts it).
public enum ChildProcess {
    /// Starts `executable` (a path) with `arguments` (argv[1...]), `environment` ("KEY=value";
    /// nil: this process's), /dev/null as standard input (and standard output when `quiet`),
    /// standard error shared, `pass.descriptor` as its descriptor `pass.as`, no other descriptor
    /// (every other one here is close-on-exec), default signal handling and no blocked signals;
    /// returns its pid, or the errno posix_spawn failed with.
    public static func spawn(_ executable: String, _ arguments: [String], environment: [String]? = nil,
                             quiet: Bool = false, pass: (descriptor: Int32, as: Int32)? = nil) -> Result<Int32, SpawnError> {
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        // dup2 clears close-on-exec on the passed descriptor only.
        if let pass { posix_spawn_file_actions_adddup2(&actions, pass.descriptor, pass.as) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        if quiet { posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0) }
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        var pid: pid_t = 0
        let result = withCStrings([executable] + arguments) { argv in
            guard let environment else { return posix_spawn(&pid, executable, &actions, &attributes, argv, environ) }
            return withCStrings(environment) { posix_spawn(&pid, executable, &actions, &attributes, argv, $0) }
        }
        return result == 0 ? .success(pid) : .failure(SpawnError(executable: executable, errno: result))
    }

    /// A NULL-terminated array of C strings, valid inside `body`.
    private static func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
        pointers.append(nil)
        defer { pointers.forEach { free($0) } }
        return body(pointers)
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
}

/// A program could not be started.
public struct SpawnError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The program's path.
    public let executable: String
    /// posix_spawn's error number.
    public let errno: Int32

    public var description: String { "cannot start \(executable): \(String(cString: strerror(errno)))" }
}
