#if canImport(Glibc)
import Glibc
#endif
import Posix

/// Why sending or receiving on the worker socket failed.
public enum ThumbnailSocketError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A system call failed with `errno`.
    case system(call: String, errno: Int32)
    /// The kernel cut the control data (MSG_CTRUNC): descriptors were lost, the stream cannot be trusted.
    case controlTruncated

    /// A one-line explanation for logs.
    public var description: String {
        switch self {
        case .system(let call, let code): SystemCallError(call, errno: code).description
        case .controlTruncated: "control data truncated (descriptors lost)"
        }
    }
}

/// What one `recvmsg` brought: bytes and the descriptors that came with them.
public struct ReceivedChunk: Sendable {
    /// The bytes; empty means the other end closed the stream.
    public var bytes: [UInt8]
    /// Descriptors received (close-on-exec), in order; the caller owns them.
    public var descriptors: [Int32]
}

/// sendmsg/recvmsg with SCM_RIGHTS on a blocking Unix stream socket; the only pointer code of the protocol.
public enum FrameSocket {
    /// Sends all of `bytes` (non-empty), passing `descriptor` with the first byte so it is paired with its frame.
    public static func send(_ bytes: [UInt8], on socket: Int32, passing descriptor: Int32? = nil)
        throws(ThumbnailSocketError) {
        var offset = 0
        var pending = descriptor
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { raw in
                withControl(descriptor: pending) { control, controlLength in
                    let base = UnsafeMutableRawPointer(mutating: raw.baseAddress?.advanced(by: offset))
                    return withMessage(base, raw.count - offset, control, controlLength) { message in
                        // MSG_NOSIGNAL: a dead peer is an error to report, not a SIGPIPE.
                        sendmsg(socket, &message, Int32(MSG_NOSIGNAL))
                    }
                }
            }
            if sent < 0 {
                if errno == EINTR { continue }
                throw .system(call: "sendmsg", errno: errno)
            }
            offset += sent
            pending = nil
        }
    }

    /// Receives up to `capacity` bytes; keeps at most `maxDescriptors` descriptors and closes any others.
    public static func receive(on socket: Int32, capacity: Int = 65_536, maxDescriptors: Int = 1)
        throws(ThumbnailSocketError) -> ReceivedChunk {
        // Room for a few descriptors more than wanted, so extras are received (and closed), not truncated.
        let room = maxDescriptors + 4
        let controlLength = controlSpace(descriptors: room)
        let control = UnsafeMutableRawPointer.allocate(byteCount: controlLength, alignment: MemoryLayout<cmsghdr>.alignment)
        defer { control.deallocate() }
        control.initializeMemory(as: UInt8.self, repeating: 0, count: controlLength)
        var bytes = [UInt8](repeating: 0, count: capacity)
        var flags: Int32 = 0
        let count = bytes.withUnsafeMutableBytes { raw in
            withMessage(raw.baseAddress, raw.count, control, controlLength) { message in
                var result: Int
                repeat {
                    result = recvmsg(socket, &message, Int32(MSG_CMSG_CLOEXEC))
                } while result < 0 && errno == EINTR
                flags = message.msg_flags
                return result
            }
        }
        if count < 0 { throw .system(call: "recvmsg", errno: errno) }
        let descriptors = parseDescriptors(control, length: controlLength)
        if flags & Int32(MSG_CTRUNC) != 0 {
            descriptors.forEach { close($0) }
            throw .controlTruncated
        }
        descriptors.dropFirst(maxDescriptors).forEach { close($0) }
        bytes.removeSubrange(count...)
        return ReceivedChunk(bytes: bytes, descriptors: Array(descriptors.prefix(maxDescriptors)))
    }

    /// A msghdr over one buffer and a control area, valid only inside `body`.
    private static func withMessage<R>(_ base: UnsafeMutableRawPointer?, _ length: Int,
                                       _ control: UnsafeMutableRawPointer?, _ controlLength: Int,
                                       _ body: (inout msghdr) -> R) -> R {
        var iov = iovec(iov_base: base, iov_len: length)
        return withUnsafeMutablePointer(to: &iov) { iovPointer in
            var message = msghdr()
            message.msg_iov = iovPointer
            message.msg_iovlen = 1
            message.msg_control = control
            message.msg_controllen = controlLength
            return body(&message)
        }
    }

    // CMSG_ALIGN / CMSG_SPACE / CMSG_LEN are C macros Swift cannot import; glibc aligns to size_t.
    private static func align(_ length: Int) -> Int {
        let unit = MemoryLayout<Int>.size
        return (length + unit - 1) & ~(unit - 1)
    }

    private static var headerLength: Int { align(MemoryLayout<cmsghdr>.size) }

    private static func controlSpace(descriptors: Int) -> Int {
        headerLength + align(descriptors * MemoryLayout<Int32>.size)
    }

    private static func withControl<R>(descriptor: Int32?,
                                       _ body: (UnsafeMutableRawPointer?, Int) -> R) -> R {
        guard let descriptor else { return body(nil, 0) }
        let length = controlSpace(descriptors: 1)
        let control = UnsafeMutableRawPointer.allocate(byteCount: length, alignment: MemoryLayout<cmsghdr>.alignment)
        defer { control.deallocate() }
        control.initializeMemory(as: UInt8.self, repeating: 0, count: length)
        var header = cmsghdr()
        header.cmsg_len = headerLength + MemoryLayout<Int32>.size
        header.cmsg_level = SOL_SOCKET
        header.cmsg_type = Int32(SCM_RIGHTS)
        control.storeBytes(of: header, as: cmsghdr.self)
        control.storeBytes(of: descriptor, toByteOffset: headerLength, as: Int32.self)
        return body(control, length)
    }

    /// Every SCM_RIGHTS descriptor in the control buffer, walking the headers as CMSG_NXTHDR does.
    private static func parseDescriptors(_ control: UnsafeMutableRawPointer, length: Int) -> [Int32] {
        var descriptors: [Int32] = []
        var offset = 0
        while offset + headerLength <= length {
            let header = control.load(fromByteOffset: offset, as: cmsghdr.self)
            let messageLength = Int(header.cmsg_len)
            guard messageLength >= headerLength, offset + messageLength <= length else { break }
            if header.cmsg_level == SOL_SOCKET && header.cmsg_type == Int32(SCM_RIGHTS) {
                let count = (messageLength - headerLength) / MemoryLayout<Int32>.size
                for index in 0..<count {
                    let at = offset + headerLength + index * MemoryLayout<Int32>.size
                    descriptors.append(control.load(fromByteOffset: at, as: Int32.self))
                }
            }
            offset += align(messageLength)
        }
        return descriptors
    }
}
