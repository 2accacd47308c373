import CSeccomp
import Glibc

/// The syscall half of the sandbox: deny by default. Only what the worker needs once libvips is
/// started is allowed (found by tracing every corpus format: `strace -f -c`); everything else
/// fails with EPERM, so a library that tries gets an error it can report rather than a crash.
///
/// No path can be opened (`open`, `openat`, `openat2`, `creat` are not allowed: the worker reads
/// only descriptors photod passes), no process made (`clone` only with CLONE_THREAD), no signal
/// sent but to itself, no priority, limit, socket, program or memory made executable.
public enum SeccompFilter {
    /// Allowed whatever their arguments: memory, threads' waits, clocks, I/O on descriptors already open.
    static let allowed = [
        "read", "readv", "pread64", "preadv", "write", "writev", "lseek", "close", "fstat",
        "dup", "dup3", "fcntl", "recvmsg", "sendmsg", "recvfrom", "sendto", "poll", "ppoll",
        "munmap", "mremap", "brk", "madvise", "membarrier",
        "futex", "set_robust_list", "rseq", "set_tid_address",
        "exit", "exit_group", "rt_sigreturn", "rt_sigaction", "rt_sigprocmask", "sigaltstack", "restart_syscall",
        "gettid", "getpid", "getppid", "getuid", "geteuid", "getgid", "getegid", "getrusage", "getpriority",
        "clock_gettime", "clock_getres", "clock_nanosleep", "nanosleep", "gettimeofday", "time",
        "sched_yield", "getrandom", "uname", "sysinfo",
    ]
    // Not sched_getaffinity: refused, dav1d counts one processor and decodes an AVIF on one thread,
    // without the frame-threading buffers: a 20-megapixel AVIF's worker peaked at 178 MiB, now 158.
    // photod runs a worker per core, so a second decoding thread bought nothing (bench/README.md, "Images").

    /// Calls whose glibc callers fall back to an older call this filter can inspect (clone3 and
    /// openat2 hide their flags behind a pointer BPF cannot follow): ENOSYS rather than EPERM.
    static let unimplemented = ["clone3", "openat2"]

    /// Installs the filter on every thread of the process (libvips may have started some already).
    /// `pid` is this process's: the only one `kill` and `tgkill` may name.
    public static func install(pid: pid_t) throws(SandboxError) {
        guard photod_prctl(PR_SET_NO_NEW_PRIVS, 1) == 0 else { throw SandboxError("PR_SET_NO_NEW_PRIVS", errno: errno) }
        guard let context = seccomp_init(photod_scmp_act_errno(EPERM)) else { throw SandboxError("seccomp_init", errno: ENOMEM) }
        defer { seccomp_release(context) }
        try check("seccomp TSYNC", seccomp_attr_set(context, SCMP_FLTATR_CTL_TSYNC, 1))
        for name in allowed { try add(context, SCMP_ACT_ALLOW, name, []) }
        for name in unimplemented { try add(context, photod_scmp_act_errno(ENOSYS), name, []) }
        // Threads only: a clone without CLONE_THREAD would be a new process (fork, vfork, spawn).
        try add(context, SCMP_ACT_ALLOW, "clone", [masked(0, UInt64(photod_clone_thread), equals: UInt64(photod_clone_thread))])
        // No new executable memory: the loaders are mapped before the filter, and VIPS_NOVECTOR
        // keeps ORC from generating code.
        let exec = UInt64(PROT_EXEC)
        try add(context, SCMP_ACT_ALLOW, "mmap", [masked(2, exec, equals: 0)])
        try add(context, SCMP_ACT_ALLOW, "mprotect", [masked(2, exec, equals: 0)])
        // fstat is fstatat(fd, "", AT_EMPTY_PATH) in glibc: a descriptor, not a path.
        let emptyPath = UInt64(photod_at_empty_path)
        try add(context, SCMP_ACT_ALLOW, "newfstatat", [masked(3, emptyPath, equals: emptyPath)])
        try add(context, SCMP_ACT_ALLOW, "statx", [masked(2, emptyPath, equals: emptyPath)])
        // abort() and raise() signal this process; no other process can be signalled.
        try add(context, SCMP_ACT_ALLOW, "kill", [equal(0, UInt64(UInt32(bitPattern: pid)))])
        try add(context, SCMP_ACT_ALLOW, "tgkill", [equal(0, UInt64(UInt32(bitPattern: pid)))])
        // getrlimit (prlimit64 of itself with no new limit); setting a limit is refused.
        try add(context, SCMP_ACT_ALLOW, "prlimit64", [equal(0, 0), equal(2, 0)])
        // GLib names its threads; of the rest of prctl only reads are allowed (never PR_SET_DUMPABLE).
        for option in [PR_SET_NAME, PR_GET_NAME, PR_GET_DUMPABLE] {
            try add(context, SCMP_ACT_ALLOW, "prctl", [equal(0, UInt64(option))])
        }
        try check("seccomp_load", seccomp_load(context))
    }

    private static func add(_ context: scmp_filter_ctx, _ action: UInt32, _ name: String,
                            _ conditions: [scmp_arg_cmp]) throws(SandboxError) {
        let number = seccomp_syscall_resolve_name(name)
        // A name this architecture lacks (e.g. a legacy call) needs no rule.
        guard number != __NR_SCMP_ERROR else { return }
        var conditions = conditions
        let result = conditions.withUnsafeMutableBufferPointer {
            seccomp_rule_add_array(context, action, number, UInt32($0.count), $0.baseAddress)
        }
        try check(name, result)
    }

    private static func masked(_ argument: UInt32, _ mask: UInt64, equals value: UInt64) -> scmp_arg_cmp {
        scmp_arg_cmp(arg: argument, op: SCMP_CMP_MASKED_EQ, datum_a: scmp_datum_t(mask), datum_b: scmp_datum_t(value))
    }

    private static func equal(_ argument: UInt32, _ value: UInt64) -> scmp_arg_cmp {
        scmp_arg_cmp(arg: argument, op: SCMP_CMP_EQ, datum_a: scmp_datum_t(value), datum_b: 0)
    }

    private static func check(_ step: String, _ result: Int32) throws(SandboxError) {
        // libseccomp returns -errno.
        guard result == 0 else { throw SandboxError(step, errno: -result) }
    }
}
