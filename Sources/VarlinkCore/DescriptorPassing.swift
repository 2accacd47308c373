// sendmsg and recvmsg with SCM_RIGHTS: the module's only code that lays out control messages.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Posix

/// File descriptors riding on a message's bytes as ancillary data, as sd-varlink passes them.
///
/// The kernel attaches a sendmsg's descriptors to the first chunk of bytes that call queues, and a
/// reader gets them with the recvmsg that returns bytes of that chunk; such a recvmsg stops at the
/// chunk's end, though it may start with earlier bytes. So a sender starts every message with
/// descriptors in a fresh sendmsg, and a reader counts them to the message holding the last byte
/// of the recvmsg that brought them.
package enum DescriptorPassing {
    /// Most descriptors one reply may carry; the receiver's control buffer is sized for this many.
    package static let maxPerMessage = 16

    /// What one sendmsg did.
    package enum SendOutcome: Equatable {
        /// The kernel took this many bytes (at least one), and the descriptors with the first.
        case sent(Int)
        /// The socket buffer is full: nothing was taken, descriptors included.
        case wouldBlock
        /// The call failed with this errno; nothing was taken.
        case failed(Int32)
    }

    /// What one recvmsg returned; the descriptors are the caller's to close, even when truncated.
    package struct Received {
        /// Bytes read; 0 means the peer closed the connection.
        package var count: Int
        /// The descriptors that came with the bytes, close-on-exec.
        package var descriptors: [Int32]
        /// The kernel had more descriptors than the control buffer held (MSG_CTRUNC) and closed those.
        package var truncated: Bool
    }

    /// One non-blocking sendmsg of `message` with `descriptors` on its first byte; never raises SIGPIPE.
    package static func send(_ message: [UInt8], descriptors: [Int32], on socket: Int32) -> SendOutcome {
        guard !message.isEmpty else { return .sent(0) }
        let space = self.controlSpace(descriptors: descriptors.count)
        let control = UnsafeMutableRawPointer.allocate(byteCount: space, alignment: MemoryLayout<cmsghdr>.alignment)
        defer { control.deallocate() }
        control.initializeMemory(as: UInt8.self, repeating: 0, count: space)
        var header = cmsghdr()
        header.cmsg_len = numericCast(self.headerSize + descriptors.count * MemoryLayout<Int32>.size)
        header.cmsg_level = SOL_SOCKET
        header.cmsg_type = Int32(SCM_RIGHTS)
        control.storeBytes(of: header, as: cmsghdr.self)
        for (index, descriptor) in descriptors.enumerated() {
            control.storeBytes(of: descriptor, toByteOffset: self.headerSize + index * MemoryLayout<Int32>.size, as: Int32.self)
        }
        let result = message.withUnsafeBytes { bytes -> Int in
            var vector = iovec(iov_base: UnsafeMutableRawPointer(mutating: bytes.baseAddress), iov_len: bytes.count)
            return withUnsafeMutablePointer(to: &vector) { vector in
                var envelope = msghdr()
                envelope.msg_iov = vector
                envelope.msg_iovlen = 1
                envelope.msg_control = descriptors.isEmpty ? nil : control
                envelope.msg_controllen = descriptors.isEmpty ? 0 : numericCast(space)
                return self.retryingInterrupts { sendmsg(socket, &envelope, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
            }
        }
        if result >= 0 {
            return .sent(result)
        }
        let code = errno
        return code == EAGAIN || code == EWOULDBLOCK ? .wouldBlock : .failed(code)
    }

    /// One recvmsg into `buffer` (blocking unless the socket is not), with room for
    /// `maxPerMessage` descriptors (close-on-exec); EAGAIN comes back as a failure.
    package static func receive(into buffer: UnsafeMutableRawBufferPointer, on socket: Int32) -> Result<Received, SystemCallError> {
        let space = self.controlSpace(descriptors: self.maxPerMessage)
        let control = UnsafeMutableRawPointer.allocate(byteCount: space, alignment: MemoryLayout<cmsghdr>.alignment)
        defer { control.deallocate() }
        control.initializeMemory(as: UInt8.self, repeating: 0, count: space)
        var vector = iovec(iov_base: buffer.baseAddress, iov_len: buffer.count)
        var envelope = msghdr()
        let count = withUnsafeMutablePointer(to: &vector) { vector in
            envelope.msg_iov = vector
            envelope.msg_iovlen = 1
            envelope.msg_control = control
            envelope.msg_controllen = numericCast(space)
            return self.retryingInterrupts { recvmsg(socket, &envelope, Int32(MSG_CMSG_CLOEXEC)) }
        }
        guard count >= 0 else {
            return .failure(SystemCallError("recvmsg", errno: errno))
        }
        let descriptors = self.descriptors(in: UnsafeRawBufferPointer(start: control, count: Int(envelope.msg_controllen)))
        let truncated = envelope.msg_flags & Int32(MSG_CTRUNC) != 0
        return .success(Received(count: count, descriptors: descriptors, truncated: truncated))
    }

    /// Every SCM_RIGHTS descriptor in a control buffer as recvmsg filled it.
    private static func descriptors(in control: UnsafeRawBufferPointer) -> [Int32] {
        var descriptors: [Int32] = []
        var offset = 0
        while offset + self.headerSize <= control.count {
            let header = control.loadUnaligned(fromByteOffset: offset, as: cmsghdr.self)
            let length = Int(header.cmsg_len)
            guard length >= self.headerSize, offset + length <= control.count else { break }
            if header.cmsg_level == SOL_SOCKET && header.cmsg_type == Int32(SCM_RIGHTS) {
                let count = (length - self.headerSize) / MemoryLayout<Int32>.size
                for index in 0..<count {
                    descriptors.append(control.loadUnaligned(
                        fromByteOffset: offset + self.headerSize + index * MemoryLayout<Int32>.size, as: Int32.self
                    ))
                }
            }
            offset += self.aligned(length)
        }
        return descriptors
    }

    /// CMSG_ALIGN: control messages start on size_t boundaries.
    private static func aligned(_ length: Int) -> Int {
        let word = MemoryLayout<Int>.size
        return (length + word - 1) & ~(word - 1)
    }

    /// CMSG_LEN(0): the header before a control message's data.
    private static var headerSize: Int { self.aligned(MemoryLayout<cmsghdr>.size) }

    /// CMSG_SPACE: the buffer one SCM_RIGHTS message of `count` descriptors needs.
    private static func controlSpace(descriptors count: Int) -> Int {
        self.headerSize + self.aligned(count * MemoryLayout<Int32>.size)
    }

    private static func retryingInterrupts(_ call: () -> Int) -> Int {
        while true {
            let result = call()
            if result >= 0 || errno != EINTR {
                return result
            }
        }
    }
}
