import Foundation
import Posix

/// The `NOTIFY_SOCKET` a test owns, as systemd's would be: a datagram socket a started photod
/// sends `READY=1` to once its start-up reconcile is done. Waiting on it is waiting for
/// photod's own readiness, instead of polling `photoctl status`.
final class NotifySocket: @unchecked Sendable {
    /// What a wait for readiness ended with.
    enum Outcome: Sendable, Equatable {
        case ready
        case exited(Int32)
        case timedOut
    }

    /// The socket's path (the value of `NOTIFY_SOCKET`).
    let path: String
    private let descriptor: Int32

    /// Binds a new socket at `path` (a stale one there is replaced).
    init(path: String) throws {
        self.path = path
        unlink(path)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw POSIXError(.ENAMETOOLONG) }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else {
            let code = errno
            close(descriptor)
            throw POSIXError(.init(rawValue: code) ?? .EIO)
        }
    }

    /// Waits, on a thread of its own, for a datagram holding the line `READY=1`, for `child` to
    /// end, or for `timeout` to pass, whichever comes first.
    func waitForReady(of child: TestChild, timeout: TimeInterval) async -> Outcome {
        await DetachedThread.result(name: "test-notify") { self.waitHere(child: child, timeout: timeout) }
    }

    private func waitHere(child: TestChild, timeout: TimeInterval) -> Outcome {
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline {
            // The poll wakes for a datagram; the 50 ms tick is only for noticing the child's end.
            if let status = child.status { return .exited(status) }
            var polled = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&polled, 1, 50) > 0 else { continue }
            let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            guard count > 0 else { continue }
            if String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n").contains("READY=1") { return .ready }
        }
        return .timedOut
    }

    deinit {
        close(descriptor)
        unlink(path)
    }
}
