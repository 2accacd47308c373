import Glibc

/// Keeps library chatter from killing the worker when its stderr is a regular file (photod run
/// with `2>file`): under RLIMIT_FSIZE 0 no byte can be written to one, and the attempt raises
/// SIGXFSZ. dav1d says "Unable to detect thread count" on every AVIF, since the seccomp filter
/// refuses sched_getaffinity.
enum QuietStandardError {
    /// Points fd 2 at /dev/null when it is a regular file. Call after `ProcessLimits.apply`, from
    /// when on nothing could be written to such a file anyway, and before the sandbox, which lets
    /// no path be opened.
    static func unlessWritable() {
        var status = stat()
        guard fstat(2, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return }
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        guard null >= 0 else { return }
        dup2(null, 2)
        close(null)
    }
}
