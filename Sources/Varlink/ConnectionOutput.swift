import Logging
import NIOCore

/// The write side of one connection, with a bound on the replies that may wait unsent.
///
/// The channel's high write watermark is the bound (the server sets it when it accepts). While the
/// client reads, replies go out at once; once more than the bound waits in memory because the
/// client stopped reading, the next reply closes the connection instead of queueing behind the
/// rest. So such a client costs at most the bound plus one reply, whatever its calls stream, and a
/// handler is never parked on a write.
///
/// Writes go to the channel directly, with the writability check and the write in one event-loop
/// turn: NIOAsyncChannel's writer would instead suspend the handler while the channel is
/// unwritable, which for a client that never reads again is forever.
struct ConnectionOutput: Sendable {
    let channel: any Channel
    /// Unsent bytes past which the connection is closed (the channel's high watermark).
    let limit: Int
    let logger: Logger
    let budget: LogBudget

    /// Thrown to a handler whose connection is closed or closing: a reply cannot go out.
    enum Gone: Error, CustomStringConvertible {
        /// The client left more than `limit` bytes of replies unread; the connection is closing.
        case notReading(limit: Int)
        /// The connection was already closed.
        case closed

        var description: String {
            switch self {
            case .notReading(let limit): "the client left more than \(limit) bytes of replies unread"
            case .closed: "the connection is closed"
            }
        }
    }

    private enum Outcome {
        case written
        case notReading
        case closed
    }

    /// Sends one whole message, or closes the connection when the client is not reading.
    func write(_ message: [UInt8]) async throws {
        let channel = self.channel
        let buffer = channel.allocator.buffer(bytes: message)
        let outcome = try await channel.eventLoop.submit { () -> Outcome in
            guard channel.isActive else { return .closed }
            guard channel.isWritable else { return .notReading }
            channel.writeAndFlush(buffer, promise: nil)
            return .written
        }.get()
        switch outcome {
        case .written:
            return
        case .closed:
            throw Gone.closed
        case .notReading:
            throw self.dropNotReading()
        }
    }

    /// Closes the connection of a client that left its replies unread; the error for the handler.
    func dropNotReading() -> Gone {
        self.budget.log(
            self.logger, .warning, "varlink client stopped reading its replies, closing the connection",
            metadata: ["unsent.limit": "\(self.limit)"]
        )
        self.channel.close(promise: nil)
        return Gone.notReading(limit: self.limit)
    }
}
