#if canImport(Glibc)
import Glibc
#endif
import CFileCopy
import CLinuxIO

/// The system calls of a server that accepts Unix stream connections itself: the listening
/// socket, accept4, and the pipe each connection's bytes are relayed through.
public enum ListeningSocket {
    /// What one accept found.
    public enum Accepted: Sendable, Equatable {
        /// A connected socket, close-on-exec and non-blocking; the caller closes it.
        case socket(Int32)
        /// Nobody is waiting to be accepted.
        case none
        /// accept4 failed with this errno (EMFILE: out of descriptors).
        case failed(Int32)
    }

    /// A non-blocking, close-on-exec socket bound to `path` and listening with `backlog`.
    public static func bind(path: String, backlog: Int32) throws(SystemCallError) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        // sun_path keeps room for the NUL that ends the path.
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw SystemCallError("bind \(path)", errno: ENAMETOOLONG)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        let descriptor = socket(AF_UNIX, type, 0)
        guard descriptor >= 0 else { throw SystemCallError("socket", errno: errno) }
        let bound = withUnsafePointer(to: &address) { address in
            address.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else {
            let code = errno
            close(descriptor)
            throw SystemCallError("bind \(path)", errno: code)
        }
        guard listen(descriptor, backlog) == 0 else {
            let code = errno
            close(descriptor)
            throw SystemCallError("listen \(path)", errno: code)
        }
        return descriptor
    }

    /// Makes an inherited listening socket (socket activation) non-blocking and close-on-exec.
    public static func adopt(_ descriptor: Int32) throws(SystemCallError) {
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0, fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0 else {
            throw SystemCallError("fcntl", errno: errno)
        }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    }

    /// One accept4, close-on-exec and non-blocking; retried when interrupted or when the client
    /// gave up before it was accepted.
    public static func accept(on listener: Int32) -> Accepted {
        while true {
            let flags = Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
            let descriptor = accept4(listener, nil, nil, flags)
            if descriptor >= 0 { return .socket(descriptor) }
            switch errno {
            case EINTR, ECONNABORTED: continue
            case EAGAIN, EWOULDBLOCK: return .none
            case let code: return .failed(code)
            }
        }
    }

    /// The path the peer of `socket` bound its end to; nil for an unbound (or abstract) one.
    public static func peerPath(of socket: Int32) -> String? {
        var address = sockaddr_un()
        var length = socklen_t(MemoryLayout<sockaddr_un>.size)
        let named = withUnsafeMutablePointer(to: &address) { address in
            address.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(socket, $0, &length) }
        }
        let pathLength = Int(length) - MemoryLayout<sa_family_t>.size
        guard named == 0, pathLength > 0 else { return nil }
        let bytes = withUnsafeBytes(of: &address.sun_path) { Array($0.prefix(pathLength)) }
        let path = bytes.prefix { $0 != 0 }
        return path.isEmpty ? nil : String(decoding: path, as: UTF8.self)
    }

    /// A pipe, both ends close-on-exec and non-blocking: (read end, write end).
    public static func pipe() throws(SystemCallError) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard pipe2(&ends, O_CLOEXEC | O_NONBLOCK) == 0 else { throw SystemCallError("pipe2", errno: errno) }
        return (ends[0], ends[1])
    }

    /// A close-on-exec duplicate of `descriptor`.
    public static func duplicate(_ descriptor: Int32) throws(SystemCallError) -> Int32 {
        let copy = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0 else { throw SystemCallError("fcntl F_DUPFD_CLOEXEC", errno: errno) }
        return copy
    }
}
