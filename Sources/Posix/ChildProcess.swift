#if canImport(Glibc)
import Glibc
#endif
import CSpawn
import SystemPackage

/// Starts another program with posix_spawn and waits for it, without Foundation's `Process`
/// (which would link Foundation's full and ICU libraries into the program that starts it).
public enum ChildProcess {
    /// Starts `executable` (a path) with `arguments` (argv[1...]), `environment` ("KEY=value";
    /// nil: this process's), in `directory` (nil: this process's), with `streams` as its
    /// standard input, output and error (by default /dev/null as input, /dev/null as output when
    /// `quiet`, the rest shared), `pass.descriptor` as its descriptor `pass.as`, no other
    /// descriptor (all above them are closed in the child, close-on-exec or not), default
    /// signal handling and no blocked signals; returns its pid, or the errno posix_spawn failed with.
    public static func spawn(_ executable: String, _ arguments: [String], environment: [String]? = nil,
                             directory: String? = nil, quiet: Bool = false, streams: Streams = Streams(),
                             pass: (descriptor: Int32, as: Int32)? = nil) -> Result<Int32, SpawnError> {
        spawn(executable, bytes: arguments.map { Array($0.utf8) }, environment: environment, directory: directory,
              quiet: quiet, streams: streams, pass: pass)
    }

    /// `spawn` with each argument as exact bytes (a path need not be UTF-8), and with only
    /// `defaultSignals` (nil: every signal) set back to their default action in the child: a
    /// program started for a user keeps what the user's shell ignored (nohup's SIGHUP).
    public static func spawn(_ executable: String, bytes arguments: [[UInt8]], environment: [String]? = nil,
                             directory: String? = nil, quiet: Bool = false, streams: Streams = Streams(),
                             pass: (descriptor: Int32, as: Int32)? = nil,
                             defaultSignals: [Int32]? = nil) -> Result<Int32, SpawnError> {
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        // dup2 clears close-on-exec on the descriptors it places only. The standard streams
        // come first: a stream's descriptor may be the number `pass` is placed at.
        if let input = streams.input {
            posix_spawn_file_actions_adddup2(&actions, input, STDIN_FILENO)
        } else {
            posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        }
        if let output = streams.output {
            posix_spawn_file_actions_adddup2(&actions, output, STDOUT_FILENO)
        } else if quiet {
            posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        }
        if let error = streams.error { posix_spawn_file_actions_adddup2(&actions, error, STDERR_FILENO) }
        if let pass { posix_spawn_file_actions_adddup2(&actions, pass.descriptor, pass.as) }
        // A descriptor another thread opened without O_CLOEXEC would otherwise leak into the
        // child (and hold a pipe open past its reader's end).
        posix_spawn_file_actions_addclosefrom_np(&actions, max(STDERR_FILENO, pass?.as ?? STDERR_FILENO) + 1)
        if let directory { posix_spawn_file_actions_addchdir_np(&actions, directory) }
        var defaults = sigset_t()
        if let defaultSignals {
            sigemptyset(&defaults)
            for signal in defaultSignals { sigaddset(&defaults, signal) }
        } else {
            sigfillset(&defaults)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        var pid: pid_t = 0
        let result = withCStrings([Array(executable.utf8)] + arguments) { argv in
            guard let environment else { return posix_spawn(&pid, executable, &actions, &attributes, argv, environ) }
            return withCStrings(environment.map { Array($0.utf8) }) {
                posix_spawn(&pid, executable, &actions, &attributes, argv, $0)
            }
        }
        return result == 0 ? .success(pid) : .failure(SpawnError(executable: executable, errno: result))
    }

    /// A NULL-terminated array of C strings (`strings`' bytes, each NUL-terminated), valid
    /// inside `body`.
    private static func withCStrings<R>(_ strings: [[UInt8]], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { bytes in
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            bytes.withUnsafeBytes { raw in
                if let base = raw.baseAddress { UnsafeMutableRawPointer(copy).copyMemory(from: base, byteCount: raw.count) }
            }
            copy[bytes.count] = 0
            return copy
        }
        pointers.append(nil)
        defer { pointers.forEach { $0?.deallocate() } }
        return body(pointers)
    }

    /// Waits for the child `pid` to end (or, not `blocking`, looks whether it has); its exit
    /// status, or the number of the signal that ended it (as Foundation's
    /// `Process.terminationStatus` says it), or nil when it has not ended yet (not `blocking`)
    /// or `pid` is not a child of this process.
    public static func wait(_ pid: Int32, blocking: Bool = true) -> Int32? {
        var status: Int32 = 0
        var result: pid_t
        repeat {
            result = waitpid(pid, &status, blocking ? 0 : WNOHANG)
        } while result < 0 && errno == EINTR
        // WIFEXITED and WEXITSTATUS are macros Swift cannot import.
        guard result == pid else { return nil }
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : status & 0x7F
    }
}

extension ChildProcess {
    /// The descriptors a child gets as its standard input, output and error; nil keeps
    /// `spawn`'s default for that stream.
    public struct Streams: Sendable {
        /// Becomes the child's standard input (default: /dev/null).
        public var input: Int32?
        /// Becomes the child's standard output (default: this process's, or /dev/null when quiet).
        public var output: Int32?
        /// Becomes the child's standard error (default: this process's).
        public var error: Int32?

        /// Streams with the given descriptors.
        public init(input: Int32? = nil, output: Int32? = nil, error: Int32? = nil) {
            self.input = input
            self.output = output
            self.error = error
        }
    }
}

/// A program could not be started.
public struct SpawnError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The program's path.
    public let executable: String
    /// posix_spawn's error number.
    public let errno: Int32

    public var description: String { "cannot start \(executable): \(Errno(rawValue: errno))" }
}
