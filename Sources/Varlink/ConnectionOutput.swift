import LogLines
import Logging
import NIOCore

/// The write side of one connection, with a bound on the replies that may wait unsent.
///
/// The channel's high write watermark is the bound (the server sets it when it accepts). A reply
/// within the bound goes out at once while the client reads; a larger one (an image) goes out in
/// pieces of at most the bound, each queued only once everything before it is written, so no
/// more than twice the bound ever waits in NIO's buffer. A client that takes
/// nothing for `pieceWait` while a reply waits, or leaves more than the bound of replies unread,
/// is disconnected and its replies freed. So such a client costs at most twice the bound in queued
/// bytes, whatever its calls stream, and a handler is parked on a write for at most `pieceWait`.
///
/// Writes go to the channel directly, with the writability check and the write in one event-loop
/// turn: NIOAsyncChannel's writer would instead suspend the handler while the channel is
/// unwritable, which for a client that never reads again is forever.
struct ConnectionOutput: Sendable {
    let channel: any Channel
    /// The connection's socket, for sendmsg with descriptors (ConnectionOutput+FileDescriptors):
    /// NIO's channel reads a pipe and cannot hand its socket out.
    let socket: Int32
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

    /// How long a reply too large for the bound waits for the client to take its previous piece.
    static let pieceWait = TimeAmount.seconds(10)

    /// Sends one whole message, or closes the connection when the client is not reading.
    func write(_ message: [UInt8]) async throws {
        try await self.write(ReplyMessage(whole: message))
    }

    /// Sends one message, or closes the connection when the client is not reading.
    func write(_ message: ReplyMessage) async throws {
        let channel = self.channel
        let limit = self.limit
        let outcome = try await channel.eventLoop.submit { () -> Outcome? in
            guard channel.isActive else { return .closed }
            guard channel.isWritable else { return .notReading }
            // Larger than the bound by itself (an image): it goes out piece by piece. A reply
            // within the bound is queued while the client reads (the watermark says it does), so
            // what waits stays under the bound plus one such reply, and a client that stopped
            // reading is dropped at once rather than after `pieceWait`.
            guard message.count <= limit else { return nil }
            channel.writeAndFlush(channel.allocator.buffer(bytes: message.joined()), promise: nil)
            return .written
        }.get()
        guard let outcome else { return try await self.writeInPieces(message) }
        switch outcome {
        case .written:
            return
        case .closed:
            throw Gone.closed
        case .notReading:
            throw self.dropNotReading()
        }
    }

    /// Writes `message` in pieces of at most the bound, each made and queued once everything
    /// before it is written (an empty write completes then), so at most the bound waits unsent,
    /// and a carried field is base64 for one piece at a time.
    private func writeInPieces(_ message: ReplyMessage) async throws {
        let channel = self.channel
        let loop = channel.eventLoop
        var pieces = message.pieces(of: self.limit)
        // First the replies before this one, then each piece in turn, must be taken in time.
        var previous = try await self.drained()
        while true {
            guard let written = previous else { throw Gone.closed }
            guard await Self.completes(written, before: .now() + Self.pieceWait, on: loop) else {
                throw self.dropNotReading()
            }
            guard let piece = pieces.next() else { return }
            previous = try await loop.submit { () -> EventLoopFuture<Void>? in
                guard channel.isActive else { return nil }
                let sent = loop.makePromise(of: Void.self)
                channel.writeAndFlush(channel.allocator.buffer(bytes: piece), promise: sent)
                return sent.futureResult
            }.get()
        }
    }

    /// Waits until every reply queued so far is written, as a client that closed its sending side
    /// still takes them before the connection closes; one that takes nothing for `pieceWait` is
    /// dropped, as a reply in pieces would be.
    func finishWriting() async {
        guard let written = try? await self.drained() else { return }
        if !(await Self.completes(written, before: .now() + Self.pieceWait, on: self.channel.eventLoop)) {
            _ = self.dropNotReading()
        }
    }

    /// A future completed once everything queued before it is written (an empty write completes
    /// then); nil when the channel is closed.
    private func drained() async throws -> EventLoopFuture<Void>? {
        let channel = self.channel
        let loop = channel.eventLoop
        return try await loop.submit { () -> EventLoopFuture<Void>? in
            guard channel.isActive else { return nil }
            let drained = loop.makePromise(of: Void.self)
            channel.writeAndFlush(channel.allocator.buffer(capacity: 0), promise: drained)
            return drained.futureResult
        }.get()
    }

    /// Whether `future` completes (either way) before `deadline`.
    static func completes(
        _ future: EventLoopFuture<Void>, before deadline: NIODeadline, on loop: any EventLoop
    ) async -> Bool {
        let outcome = loop.makePromise(of: Bool.self)
        let timer = loop.scheduleTask(deadline: deadline) { outcome.succeed(false) }
        future.whenComplete { _ in
            timer.cancel()
            // Ignored by NIO if the timer fired first.
            outcome.succeed(true)
        }
        return (try? await outcome.futureResult.get()) ?? false
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
