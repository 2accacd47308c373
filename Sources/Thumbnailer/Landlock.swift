import CSeccomp
import Glibc
import SystemPackage

/// The file-system half of the sandbox: a Landlock domain with no rule, so the worker can open,
/// make or execute no path at all (it only ever reads the descriptors photod hands it).
public enum Landlock {
    /// What the kernel let the worker do, for the hello line photod logs.
    public enum Outcome: Equatable, Sendable {
        /// In force, at this ABI version.
        case applied(abi: Int)
        /// The kernel has no Landlock (before 5.13, or not in the `lsm=` list): the seccomp
        /// filter's refusal of every open stands alone.
        case unavailable(reason: String)

        /// A few words for the hello line: "landlock abi 6" or "landlock unavailable (…)".
        public var summary: String {
            switch self {
            case .applied(let abi): "landlock abi \(abi)"
            case .unavailable(let reason): "landlock unavailable (\(reason))"
            }
        }
    }

    /// Restricts this process; needs PR_SET_NO_NEW_PRIVS first. A kernel without Landlock is not
    /// an error, nor is a service manager's filter that refuses its calls (the seccomp filter refuses
    /// opens by itself); a kernel that has it and refuses the domain is.
    public static func apply() throws(SandboxError) -> Outcome {
        let abi = photod_landlock_abi()
        guard abi >= 1 else {
            let code = errno
            // EPERM: a service manager's system-call filter (an admin's stricter unit) refused
            // the call before the kernel saw it. The worker's own filter still refuses every open.
            guard code == ENOSYS || code == EOPNOTSUPP || code == EPERM else {
                throw SandboxError("landlock_create_ruleset", errno: code)
            }
            return .unavailable(reason: Errno(rawValue: code).description)
        }
        guard photod_landlock_deny_all(abi) == 0 else { throw SandboxError("landlock_restrict_self", errno: errno) }
        return .applied(abi: abi)
    }
}
