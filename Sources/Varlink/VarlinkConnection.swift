import Logging
import NIOCore
import Synchronization

/// Serves one accepted connection: reads calls and answers them one after another.
///
/// Calls are handled strictly in order, and the next bytes are read only once the current call
/// is done, so a client that pipelines calls without reading replies fills the socket buffers and
/// stalls itself; NIOAsyncChannel stops reading from the socket when its inbound buffer is full.
struct VarlinkConnection {
    let id: UInt64
    let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
    let registry: VarlinkRegistry
    let maxMessageBytes: Int
    let attach: (@Sendable (VarlinkPeer?) async -> (any Sendable)?)?
    let logger: Logger

    func run() async {
        var logger = self.logger
        logger[metadataKey: "varlink.connection"] = "\(self.id)"
        let peer = await Posix.peer(of: self.channel.channel)
        if let peer {
            logger[metadataKey: "varlink.peer"] = "pid=\(peer.pid) uid=\(peer.uid)"
        }
        logger.debug("varlink connection opened")
        let attachment = await self.attach?(peer)
        let context = VarlinkConnectionContext(id: self.id, peer: peer, attachment: attachment)
        let watcher = CloseWatcher(channel: self.channel.channel)
        do {
            try await self.channel.executeThenClose { inbound, outbound in
                var decoder = VarlinkFrameDecoder(maxMessageBytes: self.maxMessageBytes)
                for try await buffer in inbound {
                    decoder.append(buffer.readableBytesView)
                    while let frame = try decoder.nextFrame() {
                        // On shutdown, calls already read are dropped rather than started.
                        try Task.checkCancellation()
                        let call = try VarlinkCall.parse(frame)
                        await self.serve(call, context: context, outbound: outbound, watcher: watcher, logger: logger)
                    }
                }
            }
            logger.debug("varlink connection closed")
        } catch let error as VarlinkProtocolError {
            logger.warning("varlink protocol violation, closing the connection", metadata: ["reason": "\(error)"])
        } catch {
            logger.debug("varlink connection ended", metadata: ["error": "\(error)"])
        }
    }

    /// Runs one call to completion. The handler runs in its own task so that the peer hanging up
    /// can cancel it: while it runs nobody reads the socket, but NIO still sees the hang-up and
    /// closes the channel.
    private func serve(
        _ call: VarlinkCall,
        context: VarlinkConnectionContext,
        outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>,
        watcher: CloseWatcher,
        logger: Logger
    ) async {
        var logger = logger
        logger[metadataKey: "varlink.method"] = "\(call.method)"
        let replier = VarlinkReplier(call: call, outbound: outbound)
        let handler: VarlinkInterface.Handler
        switch self.registry.route(call) {
        case .success(let found):
            handler = found
        case .failure(let error):
            logger.debug("varlink call refused", metadata: ["error": "\(error)"])
            try? await replier.fail(error)
            replier.seal()
            return
        }
        let task = Task {
            await Self.runHandler(handler, call: call, context: context, replier: replier, logger: logger)
        }
        // A oneway call has no one waiting for a reply, so the caller hanging up does not make
        // its work pointless.
        if !call.oneway {
            watcher.track(task)
        }
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
            if Task.isCancelled {
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

/// An accepted connection on its way from NIO's accept loop to the task that serves it.
///
/// NIOAsyncChannel traps when dropped without executeThenClose, and connections still queued in
/// the listening socket's stream are dropped when the server stops; this holder closes those.
final class AcceptedConnection: Sendable {
    private let channel: Mutex<NIOAsyncChannel<ByteBuffer, ByteBuffer>?>

    init(_ channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>) {
        self.channel = Mutex(channel)
    }

    /// The channel, for exactly one owner, who must end it with executeThenClose.
    func take() -> NIOAsyncChannel<ByteBuffer, ByteBuffer>? {
        self.channel.withLock { channel in
            defer { channel = nil }
            return channel
        }
    }

    /// Closes a connection nobody will serve.
    static func discard(_ channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>) async {
        try? await channel.executeThenClose { _, _ in }
    }

    deinit {
        if let channel = self.take() {
            Task { await Self.discard(channel) }
        }
    }
}
