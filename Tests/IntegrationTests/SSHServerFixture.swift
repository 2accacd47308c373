import Foundation
import PhotoTestSupport

/// Debian's OpenSSH server on a free local port, for `photoctl --host` and `photoctl bridge`:
/// a throwaway host key, a client key authorized in the test's folder, and sessions whose
/// environment points the far side's `photoctl bridge` at a harness's photoctl and socket.
/// `stop()` must run at the end of every test (sshd is a child of this process).
final class SSHServerFixture: @unchecked Sendable {
    let dir: TemporaryDirectory
    let port: UInt16
    private let sshd: TestChild
    /// What photoctl runs in place of ssh (`PHOTOD_SSH`): ssh with this fixture's client config.
    let sshWrapper: String

    /// Whether the machine has the programs (Debian's openssh-server and openssh-client).
    static var available: Bool {
        ["/usr/sbin/sshd", "/usr/bin/ssh", "/usr/bin/ssh-keygen"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Starts sshd whose sessions reach `daemon`'s socket with the built photoctl first on PATH.
    init(serving daemon: DaemonHarness) async throws {
        dir = try TemporaryDirectory()
        port = try Self.freePort()
        for key in ["host_key", "user_key"] {
            let made = try await ProcessRunner.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", dir.file(key)])
            guard made.status == 0 else { throw SSHFixtureError.setup("ssh-keygen: \(made.stderr)") }
        }
        try FileManager.default.copyItem(atPath: dir.file("user_key.pub"), toPath: dir.file("authorized_keys"))
        // sshd refuses to start without its privilege separation folder.
        try FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true)
        let binaries = Binaries.productsFolder.path
        let runtime = daemon.environment["XDG_RUNTIME_DIR"] ?? ""
        try dir.write("sshd_config", Array("""
            Port \(port)
            ListenAddress 127.0.0.1
            HostKey \(dir.file("host_key"))
            AuthorizedKeysFile \(dir.file("authorized_keys"))
            PidFile none
            StrictModes no
            PermitRootLogin prohibit-password
            PasswordAuthentication no
            KbdInteractiveAuthentication no
            UsePAM no
            SetEnv PHOTOD_SOCKET=\(daemon.socket) XDG_RUNTIME_DIR=\(runtime) PATH=\(binaries):/usr/bin:/bin

            """.utf8))
        try dir.write("ssh_config", Array("""
            Host *
              Port \(port)
              IdentityFile \(dir.file("user_key"))
              IdentitiesOnly yes
              StrictHostKeyChecking no
              UserKnownHostsFile /dev/null
              LogLevel ERROR

            """.utf8))
        sshWrapper = try dir.write("ssh", Array("#!/bin/sh\nexec /usr/bin/ssh -F \(dir.file("ssh_config")) \"$@\"\n".utf8))
        chmod(sshWrapper, 0o755)
        sshd = try TestChild("/usr/sbin/sshd", ["-D", "-e", "-f", dir.file("sshd_config")],
                             output: .file(dir.file("sshd.log")), error: .file(dir.file("sshd.log")))
        guard await eventually(within: 10, every: .milliseconds(20), { Self.accepts(port: self.port) }) else {
            _ = await sshd.kill()
            throw SSHFixtureError.setup("sshd did not listen: \(log)")
        }
    }

    /// What sshd logged.
    var log: String { (try? String(contentsOfFile: dir.file("sshd.log"), encoding: .utf8)) ?? "" }

    /// `daemon`'s environment for a local photoctl that reaches it through this server.
    func environment(_ daemon: DaemonHarness) -> [String: String] {
        daemon.environment.merging(["PHOTOD_SSH": sshWrapper, "PHOTOD_SOCKET": "/nonexistent/io.photod"]) { $1 }
    }

    /// Runs `photoctl --host 127.0.0.1 ARGUMENTS` against `daemon` through this server.
    func photoctl(_ daemon: DaemonHarness, _ arguments: [String], timeout: TimeInterval = 60) async throws -> ProcessResult {
        try await ProcessRunner.run(Binaries.photoctl, ["--host", "127.0.0.1"] + arguments,
                                    environment: environment(daemon), timeout: timeout)
    }

    /// Stops sshd (and with it every session it still serves).
    func stop() async {
        _ = await sshd.kill()
    }

    /// A port nothing listens on now: the kernel's pick for a socket bound to port 0.
    static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: 0,
                                  sin_addr: in_addr(s_addr: inet_addr("127.0.0.1")), sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw SSHFixtureError.setup("no free port (errno \(errno))") }
        return UInt16(bigEndian: address.sin_port)
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port`.
    static func accepts(port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: port.bigEndian,
                                  sin_addr: in_addr(s_addr: inet_addr("127.0.0.1")), sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}

/// The SSH server could not be set up.
enum SSHFixtureError: Error {
    case setup(String)
}
