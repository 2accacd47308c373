#if canImport(Glibc)
import Glibc
#endif
import LogLines
import Logging
import NIOCore
import Synchronization

/// Serves one admitted connection: reads calls and answers them one after another.
///
/// Calls are handled strictly in order, and the next bytes are read only once the current call
/// is done (NIOAsyncChannel stops reading the relay's pipe when its inbound buffer is full, and
/// the relay stops reading the socket when the pipe is full), so a client's pipelined calls wait
/// in its own socket. A client that shuts down its sending side gets the replies to every call it
/// sent, then the connection closes; one that is gone (ClientDeparture) has it closed at once,
/// its running call cancelled. Each call gets the file descriptors that came with its message (see
/// DescriptorInbox); those its handler does not take are closed when it returns. A client that
/// does not read its replies is disconnected once they pass the bound (ConnectionOutput), and a
/// connection without a call in flight is closed by its IdleTimer.
struct VarlinkConnection {
    /// What the server's configuration says about each connection.
    struct Limits: Sendable {
        var maxMessageBytes: Int
        var idleTimeout: TimeAmount
        var maxUnsentBytes: Int
    }

    let id: UInt64
    let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
    /// The connection's socket, for replies with descriptors; closed when the channel closes.
    let sender: Int32
    /// The descriptors the client passes with its calls, as the relay receives them.
    let inbox: DescriptorInbox
    /// Where the relay says the client is gone.
    let departure: ClientDeparture
    let registry: VarlinkRegistry
    let peer: VarlinkPeer?
    let attachment: (any Sendable)?
    let limits: Limits
    let budget: LogBudget
    let logger: Logger

    func run() async {
        let logger = self.logger
        logger.debug("varlink connection opened")
        let context = VarlinkConnectionContext(id: self.id, peer: self.peer, attachment: self.attachment)
        let watcher = CloseWatcher(channel: self.channel.channel)
        let idleSeconds = self.limits.idleTimeout.nanoseconds / 1_000_000_000
        let idle = IdleTimer(channel: self.channel.channel, timeout: self.limits.idleTimeout) { [budget] in
            budget.log(logger, .notice, "closing an idle varlink connection", metadata: ["idle.seconds": "\(idleSeconds)"])
        }
        // Closed on the event loop once the channel is: ConnectionOutput sends on it only from the
        // loop, after checking the channel is active, so never after this. It is shut down first,
        // so the client sees its connection end even while the relay holds a copy (ServedSocket).
        let sender = self.sender
        self.channel.channel.closeFuture.whenComplete { _ in ServedSocket.end(sender) }
        // The pipe's end only says no more calls come (half-closure); a client gone closes it all.
        self.departure.whenGone { [channel = self.channel.channel] in channel.close(promise: nil) }
        defer {
            idle.disarm()
            self.inbox.closeAll()
        }
        do {
            try await self.channel.executeThenClose { inbound, _ in
                let output = ConnectionOutput(
                    channel: self.channel.channel, socket: self.sender, limit: self.limits.maxUnsentBytes,
                    logger: logger, budget: self.budget
                )
                var decoder = VarlinkFrameDecoder(maxMessageBytes: self.limits.maxMessageBytes)
                idle.arm()
                for try await buffer in inbound {
                    decoder.append(buffer.readableBytesView)
                    while let frame = try decoder.nextFrame() {
                        // Owned from here on: closed below unless the handler takes them.
                        let passed = ReceivedFileDescriptors(self.inbox.claim(decoder.lastFrameOffsets))
                        defer { passed.closeAll() }
                        // On shutdown, calls already read are dropped rather than started.
                        try Task.checkCancellation()
                        var call = try VarlinkCall.parse(frame)
                        call.passedDescriptors = passed
                        idle.disarm()
                        await self.serve(call, context: context, output: output, watcher: watcher, logger: logger)
                        idle.arm()
                    }
                }
                // The client is done sending (half-closed): the replies it waits for go out first.
                await output.finishWriting()
            }
            logger.debug("varlink connection closed")
        } catch let error as VarlinkProtocolError {
            self.budget.log(logger, .warning, "varlink protocol violation, closing the connection",
                            metadata: ["reason": "\(error)"])
        } catch {
            logger.debug("varlink connection ended", metadata: ["error": "\(error)"])
        }
    }

    /// Runs one call to completion. The handler runs in its own task so that the connection
    /// closing, whoever closes it, cancels it: while it runs nobody reads the socket, but NIO still
    /// sees the hang-up and closes the channel. That holds for oneway calls too: their work (a
    /// request waiting for the owner, say) must not outlive the client that asked for it.
    private func serve(
        _ call: VarlinkCall,
        context: VarlinkConnectionContext,
        output: ConnectionOutput,
        watcher: CloseWatcher,
        logger: Logger
    ) async {
        var logger = logger
        logger[metadataKey: "varlink.method"] = "\(call.method)"
        let handler: VarlinkInterface.Handler
        let replier: VarlinkReplier
        var call = call
        switch self.registry.route(call) {
        case .success(let (found, contract)):
            handler = found
            call.contract = contract
            replier = VarlinkReplier(call: call, output: output)
        case .failure(let error):
            replier = VarlinkReplier(call: call, output: output)
            logger.debug("varlink call refused", metadata: ["error": "\(error)"])
            try? await replier.fail(error)
            replier.seal()
            return
        }
        let task = Task {
            await Self.runHandler(handler, call: call, context: context, replier: replier, logger: logger)
        }
        watcher.track(task)
        await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
        watcher.untrack()
        replier.seal()
    }

    private static func runHandler(
        _ handler: VarlinkInterface.Handler,
        call: VarlinkCall,
        context: VarlinkConnectionContext,
        replier: VarlinkReplier,
        logger: Logger
    ) async {
        do {
            try await handler(call, context, replier)
            if replier.isAwaitingFinalReply {
                if Task.isCancelled {
                    return
                }
                // Without an answer the client would wait forever.
                logger.error("varlink handler returned without a final reply")
                try? await replier.fail(.internalError())
            }
        } catch let error as VarlinkError {
            logger.debug("varlink call failed", metadata: ["error": "\(error)"])
            try? await replier.fail(error)
        } catch {
            // The connection closing (the client left, or was dropped for not reading, which is
            // logged where it is decided) ends the handler; it may not be cancelled quite yet.
            if Task.isCancelled || error is ConnectionOutput.Gone {
                logger.debug("varlink handler cancelled", metadata: ["error": "\(error)"])
                return
            }
            // Unexpected errors are the server's fault, not the caller's: log the detail here,
            // answer with a generic name (see VarlinkError.internalError) and keep the connection.
            logger.error("varlink handler failed", metadata: ["error": "\(error)"])
            try? await replier.fail(.internalError())
        }
    }
}

/// Cancels the running handler when the channel closes, whoever closed it.
private final class CloseWatcher: Sendable {
    private struct State {
        var closed = false
        var current: Task<Void, Never>?
    }

    private let state = Mutex(State())

    init(channel: any Channel) {
        // The callback holds the watcher until the channel closes, which executeThenClose ensures.
        channel.closeFuture.whenComplete { _ in self.markClosed() }
    }

    func track(_ task: Task<Void, Never>) {
        let closed = self.state.withLock { state in
            state.current = task
            return state.closed
        }
        if closed {
            task.cancel()
        }
    }

    func untrack() {
        self.state.withLock { $0.current = nil }
    }

    private func markClosed() {
        let task = self.state.withLock { state in
            state.closed = true
            return state.current
        }
        task?.cancel()
    }
}
