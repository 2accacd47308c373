import Glibc

/// Proof for the tests that the sandbox is live: tries three things it must refuse and reports the errno names.
///
/// Only run when PHOTOD_THUMBNAILER_SELFTEST names a file path; every attempt is harmless if it succeeded
/// (the test would see /bin/true's exit, a socket closed at once, an empty file in its own folder).
enum SelfTest {
    static func run(path: String) -> String {
        let exec = withExecArguments { execve("/bin/true", $0, $1) }
        let socketResult = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        let socketErrno = errno
        if socketResult >= 0 { close(socketResult) }
        let file = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        let openErrno = errno
        if file >= 0 { close(file) }
        return "; selftest execve=\(outcome(exec)) socket=\(outcome(socketResult < 0 ? socketErrno : 0))"
            + " open=\(outcome(file < 0 ? openErrno : 0))"
    }

    /// Calls execve with argv ["true"] and an empty environment; returns errno (0 cannot happen: success never returns).
    private static func withExecArguments(
        _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>, UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Int32
    ) -> Int32 {
        let name = strdup("true")
        defer { free(name) }
        let argv: [UnsafeMutablePointer<CChar>?] = [name, nil]
        let environment: [UnsafeMutablePointer<CChar>?] = [nil]
        let result = body(argv, environment)
        return result == 0 ? 0 : errno
    }

    private static func outcome(_ code: Int32) -> String {
        switch code {
        case 0: "allowed"
        case EPERM: "EPERM"
        case EACCES: "EACCES"
        default: "errno\(code)"
        }
    }
}
