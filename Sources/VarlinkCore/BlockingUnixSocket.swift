#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SystemPackage

/// A connected, blocking Unix stream socket: the transport of VarlinkDescriptorClient, which
/// must call recvmsg itself. The owner calls `release()` exactly once.
struct BlockingUnixSocket {
    let descriptor: Int32
    /// The most any send or receive waits (SO_SNDTIMEO, SO_RCVTIMEO); nil: as long as it takes.
    let timeout: Duration?

    /// How long a connect waits for a server whose backlog is full, as long as SwiftNIO's
    /// ClientBootstrap waits by default.
    static let connectTimeout: Duration = .seconds(10)

    /// Connects to `path`, with `timeout` (when given) set on both directions; `localAddress`:
    /// a path to bind this end to first, which the server can read (`VarlinkPeer.address`).
    static func open(path: String, timeout: Duration?,
                     localAddress: String? = nil) throws(VarlinkConnectError) -> BlockingUnixSocket {
        guard var address = Self.address(path) else { throw Self.connectError(path: path, code: ENAMETOOLONG) }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Self.connectError(path: path, code: errno) }
        let connection = BlockingUnixSocket(descriptor: descriptor, timeout: timeout)
        if let localAddress {
            guard var local = Self.address(localAddress) else {
                connection.release()
                throw Self.connectError(path: localAddress, code: ENAMETOOLONG)
            }
            let bound = withUnsafePointer(to: &local) { local in
                local.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            guard bound == 0 else {
                let code = errno
                connection.release()
                throw Self.connectError(path: localAddress, code: code)
            }
        }
        // An AF_UNIX connect waits at most SO_SNDTIMEO; then the calls' own limit (or none) applies.
        guard connection.setLimit(SO_SNDTIMEO, connectTimeout) else {
            let code = errno
            connection.release()
            throw Self.connectError(path: path, code: code)
        }
        let connected = withUnsafePointer(to: &address) { address in
            address.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0, connection.setLimit(SO_RCVTIMEO, timeout), connection.setLimit(SO_SNDTIMEO, timeout) else {
            let code = errno
            connection.release()
            throw Self.connectError(path: path, code: code)
        }
        return connection
    }

    /// The socket address of `path`, or nil when it is too long for one.
    private static func address(_ path: String) -> sockaddr_un? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(path.utf8)
        // sun_path keeps room for the NUL that ends the path.
        guard pathBytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: pathBytes) }
        return address
    }

    /// Writes all of `bytes`; a peer gone away is an error, not SIGPIPE.
    func sendAll(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                send(self.descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written >= 0 {
                offset += written
                continue
            }
            let code = errno
            if code != EINTR {
                throw self.failure(code)
            }
        }
    }

    /// Writes all of `bytes` with `descriptors` riding on the first of them (SCM_RIGHTS, as
    /// sd-varlink passes them), then the rest as `sendAll` does. While the socket is full it
    /// waits for room, at most the socket's timeout.
    func sendAll(_ bytes: [UInt8], descriptors: [Int32]) throws {
        guard !descriptors.isEmpty else { return try sendAll(bytes) }
        let waitMilliseconds = timeout.map { Int32(clamping: $0.components.seconds * 1000 + 1) } ?? -1
        while true {
            switch DescriptorPassing.send(bytes, descriptors: descriptors, on: descriptor) {
            case .sent(let count):
                return try sendAll(Array(bytes[count...]))
            case .wouldBlock:
                var room = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                let ready = poll(&room, 1, waitMilliseconds)
                if ready == 0 { throw failure(EAGAIN) }
                if ready < 0 && errno != EINTR { throw failure(errno) }
            case .failed(let code):
                throw failure(code)
            }
        }
    }

    /// One recvmsg, with the descriptors that came with the bytes.
    func receive(into buffer: UnsafeMutableRawBufferPointer) throws -> DescriptorPassing.Received {
        switch DescriptorPassing.receive(into: buffer, on: self.descriptor) {
        case .success(let received): return received
        case .failure(let error): throw self.failure(error.errno)
        }
    }

    /// Closes the socket.
    func release() {
        _ = close(self.descriptor)
    }

    /// SO_RCVTIMEO and SO_SNDTIMEO expire as EAGAIN.
    private func failure(_ code: Int32) -> VarlinkFileDescriptorError {
        if let timeout = self.timeout, code == EAGAIN || code == EWOULDBLOCK {
            let (seconds, attoseconds) = timeout.components
            return .timedOut(seconds: Double(seconds) + Double(attoseconds) / 1e18)
        }
        return .socketFailed(errno: code, reason: "\(Errno(rawValue: code))")
    }

    /// Sets `option` to `duration`, or to no limit for nil.
    private func setLimit(_ option: Int32, _ duration: Duration?) -> Bool {
        var limit = timeval(tv_sec: 0, tv_usec: 0)
        if let duration {
            let (seconds, attoseconds) = duration.components
            limit = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
            if limit.tv_sec <= 0 && limit.tv_usec <= 0 {
                // Zero would mean no limit at all.
                limit = timeval(tv_sec: 0, tv_usec: 1)
            }
        }
        return setsockopt(self.descriptor, SOL_SOCKET, option, &limit, socklen_t(MemoryLayout<timeval>.size)) == 0
    }

    private static func connectError(path: String, code: Int32) -> VarlinkConnectError {
        VarlinkConnectError(path: path, errno: code, reason: "\(Errno(rawValue: code))")
    }
}
