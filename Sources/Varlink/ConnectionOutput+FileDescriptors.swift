#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import NIOCore
import SystemPackage

/// Replies that carry file descriptors, which NIO cannot send: they go out with one sendmsg of
/// our own on the connection's socket, never interleaved with NIO's writes.
extension ConnectionOutput {
    /// How long a reply with descriptors waits, from its first attempt, for earlier replies to
    /// drain or for room in the socket before its client counts as not reading.
    static let descriptorSendWait = TimeAmount.seconds(10)

    /// The longest pause between two tries on a full socket; short, as nothing wakes us when it drains.
    private static let maxFullSocketPause = Duration.milliseconds(50)

    private enum Attempt {
        /// The descriptors went out with the first bytes; NIO queued whatever the kernel left.
        case sent
        /// NIO still holds earlier bytes; this future completes once they are written.
        case queued(EventLoopFuture<Void>)
        /// The kernel's socket buffer is full and NIO's is empty.
        case socketFull
        case notReading
        case closed
    }

    /// Sends one whole message with `fileDescriptors` on its first byte, or closes the connection
    /// when the client is not reading. Throws VarlinkFileDescriptorError when nothing was sent.
    func write(_ message: [UInt8], fileDescriptors: [Int32]) async throws {
        let loop = self.channel.eventLoop
        let deadline = NIODeadline.now() + Self.descriptorSendWait
        var pause = Duration.milliseconds(1)
        while true {
            switch try await loop.submit({ try self.attempt(message, fileDescriptors) }).get() {
            case .sent:
                return
            case .closed:
                throw Gone.closed
            case .notReading:
                throw self.dropNotReading()
            case .queued(let drained):
                guard await Self.completes(drained, before: deadline, on: loop) else {
                    throw self.dropNotReading()
                }
            case .socketFull:
                guard NIODeadline.now() + TimeAmount(pause) < deadline else {
                    throw self.dropNotReading()
                }
                try await Task.sleep(for: pause)
                pause = min(pause * 2, Self.maxFullSocketPause)
            }
        }
    }

    /// One try, on the event loop, so that no NIO write can slip in between the check and the sendmsg.
    private func attempt(_ message: [UInt8], _ descriptors: [Int32]) throws -> Attempt {
        let channel = self.channel
        guard channel.isActive else { return .closed }
        guard channel.isWritable else { return .notReading }
        guard let options = channel.syncOptions else { throw VarlinkFileDescriptorError.unsupportedTransport }
        if try options.getOption(ChannelOptions.bufferedWritableBytes) > 0 {
            // The descriptors must arrive with this reply's first byte, so its bytes cannot queue
            // behind NIO's; an empty write completes once everything before it is written.
            let drained = channel.eventLoop.makePromise(of: Void.self)
            channel.writeAndFlush(channel.allocator.buffer(capacity: 0), promise: drained)
            return .queued(drained.futureResult)
        }
        // The socket NIO writes to (a duplicate of it): NIO's buffer is empty, checked on its loop.
        switch DescriptorPassing.send(message, descriptors: descriptors, on: self.socket) {
        case .sent(let count):
            if count < message.count {
                // The descriptors are on their way with the first bytes; NIO sends the rest in order.
                channel.writeAndFlush(channel.allocator.buffer(bytes: message[count...]), promise: nil)
            }
            return .sent
        case .wouldBlock:
            return .socketFull
        case .failed(let code) where code == EPIPE || code == ECONNRESET:
            channel.close(promise: nil)
            return .closed
        case .failed(let code):
            throw VarlinkFileDescriptorError.sendFailed(errno: code, reason: "\(Errno(rawValue: code))")
        }
    }
}
