import CSeccomp
import Glibc
import Posix

/// Why the worker could not put its sandbox in place; it refuses to serve without one.
public struct SandboxError: Error, CustomStringConvertible {
    /// What failed, with errno's text.
    public let description: String

    init(_ step: String, errno code: Int32) {
        description = SystemCallError(step, errno: code).description
    }
}

/// The process-level part of the sandbox, applied before libvips starts: parent death, descriptors, limits.
public enum ProcessLimits {
    /// The default address-space limit; decoding a bomb fails an allocation instead of swapping the host.
    public static let defaultMemoryMiB = 1024

    /// CPU seconds one worker process may use in all (RLIMIT_CPU: SIGXCPU, then SIGKILL): a decoder
    /// spinning forever ends even if photod's timeout did not fire.
    public static let cpuLimitSeconds = 120

    /// Past this much CPU a worker exits after its answer, so photod starts a fresh one and a
    /// long-lived worker never reaches `cpuLimitSeconds` doing honest work.
    public static let cpuRecycleSeconds = 60

    /// Dies with photod, keeps only stdio and the socket (fd 3), and lowers the resource limits.
    public static func apply(memoryMiB: Int) throws(SandboxError) {
        // SIGKILL when the parent goes: an orphaned worker has nothing to answer to.
        guard photod_prctl(PR_SET_PDEATHSIG, UInt(SIGKILL)) == 0 else { throw SandboxError("PR_SET_PDEATHSIG", errno: errno) }
        try closeInheritedDescriptors()
        let limits: [(String, Int32, UInt64)] = [
            ("RLIMIT_AS", Int32(RLIMIT_AS.rawValue), UInt64(memoryMiB) << 20),
            // The worker never writes a file; a write that slips through gets SIGXFSZ.
            ("RLIMIT_FSIZE", Int32(RLIMIT_FSIZE.rawValue), 0),
            ("RLIMIT_NOFILE", Int32(RLIMIT_NOFILE.rawValue), 64),
            ("RLIMIT_CORE", Int32(RLIMIT_CORE.rawValue), 0),
            ("RLIMIT_CPU", Int32(RLIMIT_CPU.rawValue), UInt64(cpuLimitSeconds)),
            // RLIMIT_NPROC is left alone: the kernel counts every thread of the user against it
            // (photod's included) and checks it on thread creation too, so 0 would stop libvips,
            // libheif and libjxl starting their threads. No new process is the seccomp filter's
            // job: clone only with CLONE_THREAD; fork, vfork and clone3 are refused.
        ]
        for (name, resource, value) in limits {
            var limit = rlimit(rlim_cur: rlim_t(value), rlim_max: rlim_t(value))
            guard setrlimit(resource, &limit) == 0 else { throw SandboxError(name, errno: errno) }
        }
    }

    /// The lowest CPU priority (nice 19) and the idle I/O class: for the worker that fills the
    /// cache ahead of time (`--background`), which must never slow the machine's owner down.
    public static func lowerPriority() throws(SandboxError) {
        try lowerPriority(nice: 19)
        guard photod_ioprio_idle() == 0 else { throw SandboxError("ioprio_set", errno: errno) }
    }

    /// The nice value of a worker making apps' images: below the owner's, above prefill's.
    public static let appsNice: Int32 = 10

    /// CPU priority `nice` (never higher than it is: a worker cannot raise it again).
    public static func lowerPriority(nice: Int32) throws(SandboxError) {
        errno = 0
        let current = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        guard errno == 0 else { throw SandboxError("getpriority", errno: errno) }
        guard current < nice else { return }
        guard setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice) == 0 else {
            throw SandboxError("setpriority", errno: errno)
        }
    }

    /// Not dumpable: no core file, and no other process of the user may ptrace it or read its
    /// /proc files (mem, environ, fd); call last, after anything that reads /proc/self by path.
    public static func forbidDumping() throws(SandboxError) {
        guard photod_prctl(PR_SET_DUMPABLE, 0) == 0 else { throw SandboxError("PR_SET_DUMPABLE", errno: errno) }
    }

    /// CPU seconds this process used so far (user and system).
    public static func cpuSeconds() -> Int {
        var usage = rusage()
        getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
        return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec
    }

    private static func closeInheritedDescriptors() throws(SandboxError) {
        if photod_close_from(4) == 0 { return }
        guard errno == ENOSYS else { throw SandboxError("close_range", errno: errno) }
        // Kernels before 5.9: close one by one up to the soft limit (capped, it may be huge).
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        for descriptor in 4..<Int32(clamping: min(limit.rlim_cur, 1 << 20)) { close(descriptor) }
    }
}

/// The file-system and syscall parts of the sandbox, in the order they must go on.
public enum Sandbox {
    /// no_new_privs, then Landlock (its calls are not on the seccomp allow-list), then seccomp.
    public static func apply(pid: pid_t) throws(SandboxError) -> Landlock.Outcome {
        guard photod_prctl(PR_SET_NO_NEW_PRIVS, 1) == 0 else { throw SandboxError("PR_SET_NO_NEW_PRIVS", errno: errno) }
        let landlock = try Landlock.apply()
        try SeccompFilter.install(pid: pid)
        return landlock
    }
}
