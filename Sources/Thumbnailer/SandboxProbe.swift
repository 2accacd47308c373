import CSeccomp
import Glibc

/// Proof for the tests, from inside the worker, that the sandbox refuses what an exploited decoder
/// would try: it attempts each and appends the outcomes (errno names, or "allowed") to the hello.
///
/// Runs only when the first argument is `--sandbox-probe` (photod passes `--background` at most),
/// and only after the whole sandbox is in place, so it can do nothing the sandbox would not let a
/// decoder do. Arguments after the flag say what to aim at: `open=PATH` (read-only), `kill=PID`
/// (signal 0, and SIGKILL when `kill!=PID`), `renice=PID`. Every attempt that succeeded would be
/// harmless to the test: a child that exits at once, a file descriptor closed, signal 0 to a
/// process the test owns.
enum SandboxProbe {
    /// The flag that turns the probe on.
    static let flag = "--sandbox-probe"

    /// The outcomes, "; probe name=outcome ...", in a fixed order.
    static func run(arguments: [String]) -> String {
        var results: [(String, Int32)] = []
        results.append(("execve", execTrue()))
        let socketResult = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        results.append(("socket", refused(socketResult) { close(socketResult) }))
        for (index, argument) in arguments.enumerated() {
            let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            let value = parts[1]
            switch parts[0] {
            case "open":
                let file = open(value, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
                results.append(("open#\(index)", refused(file) { close(file) }))
                let created = open(value + ".new", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
                results.append(("create#\(index)", refused(created) { close(created) }))
            case "kill", "kill!":
                guard let pid = pid_t(value) else { continue }
                results.append(("kill0#\(index)", refused(kill(pid, 0))))
                if parts[0] == "kill!" { results.append(("sigkill#\(index)", refused(kill(pid, SIGKILL)))) }
            case "renice":
                guard let pid = id_t(value) else { continue }
                results.append(("setpriority#\(index)",
                                refused(setpriority(__priority_which_t(PRIO_PROCESS.rawValue), pid, 19))))
            default:
                continue
            }
        }
        results.append(("fork", forkOnce()))
        results.append(("killgroup", refused(kill(0, 0))))
        results.append(("undump", refused(photod_prctl(PR_SET_DUMPABLE, 1))))
        // Refused on purpose, so dav1d decodes on one thread (see SeccompFilter.allowed).
        results.append(("affinity", refused(Int32(photod_sched_getaffinity_probe()))))
        var raised = rlimit(rlim_cur: 3600, rlim_max: 3600)
        results.append(("setrlimit", refused(setrlimit(Int32(RLIMIT_CPU.rawValue), &raised))))
        var text = "; probe"
        for (name, code) in results { text += " \(name)=\(outcome(code))" }
        text += " dumpable=\(photod_prctl(PR_GET_DUMPABLE, 0))"
        var cpu = rlimit()
        text += " cpu=" + (getrlimit(Int32(RLIMIT_CPU.rawValue), &cpu) == 0 ? String(cpu.rlim_cur) : outcome(errno))
        return text
    }

    /// errno when `result` is negative; otherwise runs `undo` and gives 0 ("allowed").
    private static func refused(_ result: Int32, undo: () -> Void = {}) -> Int32 {
        if result < 0 { return errno }
        undo()
        return 0
    }

    /// fork(); a child that came to be exits at once and is reaped.
    private static func forkOnce() -> Int32 {
        let child = fork()
        if child == 0 { _exit(0) }
        if child < 0 { return errno }
        var status: Int32 = 0
        waitpid(child, &status, 0)
        return 0
    }

    /// execve("/bin/true") with an empty environment; errno (success never returns).
    private static func execTrue() -> Int32 {
        let name = strdup("true")
        defer { free(name) }
        let argv: [UnsafeMutablePointer<CChar>?] = [name, nil]
        let environment: [UnsafeMutablePointer<CChar>?] = [nil]
        return execve("/bin/true", argv, environment) == 0 ? 0 : errno
    }

    private static func outcome(_ code: Int32) -> String {
        switch code {
        case 0: "allowed"
        case EPERM: "EPERM"
        case EACCES: "EACCES"
        case ENOSYS: "ENOSYS"
        default: "errno\(code)"
        }
    }
}
