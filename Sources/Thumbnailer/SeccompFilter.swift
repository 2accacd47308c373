import CSeccomp
import Glibc

/// The syscall half of the sandbox: default allow (GLib's needs are too many to list reliably),
/// deny what an exploited decoder would want: new programs, network, other processes, kernel
/// surfaces, and any change to the file system. Denials return an errno rather than kill, so a
/// library that tries gets an error it can report.
public enum SeccompFilter {
    /// Calls refused outright with EPERM.
    static let denied = [
        "execve", "execveat", "fork", "vfork",
        "socket", "socketpair", "connect", "bind", "listen", "accept", "accept4",
        "ptrace", "process_vm_readv", "process_vm_writev", "pidfd_open", "pidfd_getfd", "kcmp",
        "mount", "umount2", "move_mount", "fsopen", "fsmount", "fspick", "open_tree", "pivot_root", "chroot",
        "unshare", "setns", "kexec_load", "kexec_file_load", "bpf", "perf_event_open", "userfaultfd",
        "keyctl", "add_key", "request_key", "init_module", "finit_module", "delete_module",
        "io_uring_setup", "name_to_handle_at", "open_by_handle_at", "reboot", "swapon", "swapoff",
        "creat", "unlink", "unlinkat", "rename", "renameat", "renameat2", "mkdir", "mkdirat", "rmdir",
        "link", "linkat", "symlink", "symlinkat", "mknod", "mknodat", "truncate",
        "chmod", "fchmod", "fchmodat", "chown", "fchown", "fchownat", "lchown",
        "setxattr", "lsetxattr", "fsetxattr", "removexattr", "lremovexattr", "fremovexattr",
        "utime", "utimes", "utimensat", "futimesat",
        "setuid", "setgid", "setreuid", "setregid", "setresuid", "setresgid", "setgroups",
    ]

    /// Open flags that could change a file; `open` has them in argument 1, `openat` in argument 2.
    static let writeFlags = [O_WRONLY, O_RDWR, O_CREAT, O_TRUNC]

    /// Installs the filter on every thread of the process (libvips may have started some already).
    public static func install() throws(SandboxError) {
        guard photod_prctl(PR_SET_NO_NEW_PRIVS, 1) == 0 else { throw SandboxError("PR_SET_NO_NEW_PRIVS", errno: errno) }
        guard let context = seccomp_init(SCMP_ACT_ALLOW) else { throw SandboxError("seccomp_init", errno: ENOMEM) }
        defer { seccomp_release(context) }
        try check("seccomp TSYNC", seccomp_attr_set(context, SCMP_FLTATR_CTL_TSYNC, 1))
        let refuse = photod_scmp_act_errno(EPERM)
        for name in denied {
            let number = seccomp_syscall_resolve_name(name)
            // A name this architecture lacks (e.g. a legacy call) needs no rule.
            guard number != __NR_SCMP_ERROR else { continue }
            try check(name, seccomp_rule_add_array(context, refuse, number, 0, nil))
        }
        for (name, argument) in [("open", UInt32(1)), ("openat", 2)] {
            let number = seccomp_syscall_resolve_name(name)
            guard number != __NR_SCMP_ERROR else { continue }
            for flag in writeFlags {
                var comparison = scmp_arg_cmp(arg: argument, op: SCMP_CMP_MASKED_EQ,
                                              datum_a: scmp_datum_t(flag), datum_b: scmp_datum_t(flag))
                try check(name, seccomp_rule_add_array(context, refuse, number, 1, &comparison))
            }
        }
        // openat2 hides its flags behind a pointer BPF cannot follow; ENOSYS sends callers back to openat.
        let openat2 = seccomp_syscall_resolve_name("openat2")
        if openat2 != __NR_SCMP_ERROR {
            try check("openat2", seccomp_rule_add_array(context, photod_scmp_act_errno(ENOSYS), openat2, 0, nil))
        }
        try check("seccomp_load", seccomp_load(context))
    }

    private static func check(_ step: String, _ result: Int32) throws(SandboxError) {
        // libseccomp returns -errno.
        guard result == 0 else { throw SandboxError(step, errno: -result) }
    }
}
