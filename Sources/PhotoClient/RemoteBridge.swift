#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Posix
import Synchronization

/// `ssh [USER@]HOST photoctl bridge` running as a child, its stdin and stdout one end of a
/// socketpair whose other end photoctl speaks varlink over, exactly as over photod's socket.
///
/// A socketpair rather than two pipes: the varlink clients read with recvmsg and shut a socket
/// down to interrupt a wait, and ssh is as happy with a socket as with pipes. ssh's stderr is
/// photoctl's own, so its message (host unreachable, permission denied) reaches the user as ssh
/// wrote it; photoctl's own stdin never reaches ssh.
public final class RemoteBridge: Sendable {
    /// The host as the user named it (`[USER@]HOST`), for messages.
    public let host: String
    /// The command that was run, as a shell would show it, for messages.
    public let command: String
    private let pid: Int32
    private let exitStatus = Mutex<Int32?>(nil)

    private init(host: String, command: String, pid: Int32) {
        self.host = host
        self.command = command
        self.pid = pid
    }

    /// The program that reaches the host: `$PHOTOD_SSH` (a name on PATH or a path, given ssh's
    /// arguments; how a test points it at its own ssh_config), else `ssh`.
    static func sshProgram(_ environment: [String: String]) -> String {
        environment["PHOTOD_SSH"].flatMap { $0.isEmpty ? nil : $0 } ?? "ssh"
    }

    /// Starts `ssh -T -- HOST photoctl [--as-app] bridge` and returns it with this end of its
    /// socketpair (close-on-exec; the caller owns it). `remoteArguments`: what the far side's
    /// photoctl is given.
    public static func start(host: String, remoteArguments: [String],
                             environment: [String: String]) throws(PhotoClientError) -> (RemoteBridge, Int32) {
        // ssh would take a leading dash for an option of its own.
        guard !host.isEmpty, !host.hasPrefix("-") else {
            throw .remoteUnreachable(host: host, command: "ssh", reason: "\"\(host)\" is not a host name")
        }
        let program = sshProgram(environment)
        let arguments = ["-T", "--", host] + remoteArguments
        let command = ([program] + arguments).joined(separator: " ")
        guard let executable = ExecutablePath.find(program, path: environment["PATH"]) else {
            throw .remoteUnreachable(host: host, command: command, reason: "\(program) is not on PATH")
        }
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            throw .remoteUnreachable(host: host, command: command, reason: "no socketpair (errno \(errno))")
        }
        let spawned = ChildProcess.spawn(executable, arguments, streams: .init(input: ends[1], output: ends[1]))
        close(ends[1])
        switch spawned {
        case .success(let pid):
            return (RemoteBridge(host: host, command: command, pid: pid), ends[0])
        case .failure(let error):
            close(ends[0])
            throw .remoteUnreachable(host: host, command: command, reason: error.description)
        }
    }

    /// ssh's exit status once it has ended, waiting for it at most `patience` (it ends soon
    /// after the connection does); nil while it still runs. Blocks: async code goes through
    /// `failure()` and `reap()`, which wait on a thread of their own.
    func statusBlocking(waiting patience: Duration) -> Int32? {
        let deadline = ContinuousClock.now + patience
        while true {
            if let known = exitStatus.withLock({ $0 }) { return known }
            if let ended = ChildProcess.wait(pid, blocking: false) {
                exitStatus.withLock { $0 = ended }
                return ended
            }
            guard ContinuousClock.now < deadline else { return nil }
            usleep(20_000)
        }
    }

    /// The failure to report when the connection broke: ssh's own when it ended with 255 (it
    /// could not connect or log in), 127/126 (no photoctl there), or 3 (the bridge there could
    /// not reach photod; it said why on stderr); nil when ssh and the bridge did their part.
    func failure() async -> PhotoClientError? {
        await DetachedThread.result(name: "photoctl-ssh") { self.failureBlocking() }
    }

    /// `failure()` for blocking code.
    func failureBlocking() -> PhotoClientError? {
        failure(status: statusBlocking(waiting: .seconds(2)))
    }

    /// The failure ssh's exit `status` means, if any.
    private func failure(status: Int32?) -> PhotoClientError? {
        guard let status, [255, 127, 126, 3].contains(status) else { return nil }
        let reason = switch status {
        case 3: "photoctl bridge there could not reach photod (exit status 3)"
        case 127: "photoctl is not installed there (exit status 127)"
        case 126: "photoctl cannot be run there (exit status 126)"
        default: "ssh failed (exit status 255)"
        }
        return .remoteUnreachable(host: host, command: command, reason: reason)
    }

    /// Waits for ssh to end after its connection closed; a stuck one is terminated, so none is left behind.
    func reap() async {
        await DetachedThread.result(name: "photoctl-ssh") { self.reapBlocking() }
    }

    /// `reap()` for blocking code.
    func reapBlocking() {
        if statusBlocking(waiting: .seconds(2)) != nil { return }
        kill(pid, SIGTERM)
        _ = statusBlocking(waiting: .seconds(5))
    }
}
