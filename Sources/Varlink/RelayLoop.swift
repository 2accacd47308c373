#if canImport(Glibc)
import Glibc
#endif
import LogLines
import Logging
import Posix
import Synchronization
import VarlinkCore

/// The relay thread's epoll loop: accepts connections, and copies each client's bytes from its
/// socket (recvmsg, keeping the descriptors that come along) into the pipe NIO reads.
///
/// Backpressure: while a connection's pipe is full its socket is not read (only watched for
/// hang-up), so a client that sends faster than its calls are served waits in its own socket
/// rather than in this process.
///
/// End-of-file is the client shutting down its sending side (varlink's bridge convention): the
/// pipe is closed once everything before it is in, which tells the server no more calls come
/// (the channel allows half-closure, so it still answers the calls it has), and the socket is
/// watched only for a hang-up from then on. A hang-up or an error means the client is gone: the
/// socket and the pipe are closed and ClientDeparture closes the channel (which cancels a running
/// handler). NIO closing the channel (idle, not reading, shutdown, done after end-of-file) shows
/// here as an error on the pipe, or once the pipe is gone as the hang-up of the socket the server
/// shut down (ServedSocket), and the socket is closed in turn.
///
/// Unchecked Sendable: everything here is touched only by the relay thread once it runs.
final class RelayLoop: @unchecked Sendable {
    private static let wakeToken: UInt64 = 0
    private static let listenerToken: UInt64 = 1
    /// How long accepting pauses when there is no descriptor left for a connection (EMFILE), as
    /// NIO's accept backoff does; the clients wait in the backlog meanwhile.
    private static let acceptPause = Duration.seconds(1)
    /// recvmsg calls per connection and wake-up, so one busy client cannot hold the others up.
    private static let readsPerTurn = 4

    private let epoll: Epoll
    private let listener: Int32
    private let wake: Int32
    private let output: AsyncStream<AcceptedConnection>.Continuation
    private let stopping = Atomic<Bool>(false)
    private let logger: Logger
    private let budget: LogBudget
    private var connections: [UInt64: RelayedSocket] = [:]
    private var nextID: UInt64 = 1
    private var acceptingAgainAt: ContinuousClock.Instant?
    private var buffer = [UInt8](repeating: 0, count: 64 << 10)

    init(
        listener: Int32, wake: Int32, output: AsyncStream<AcceptedConnection>.Continuation,
        logger: Logger, budget: LogBudget
    ) throws {
        self.epoll = try Epoll()
        self.listener = listener
        self.wake = wake
        self.output = output
        self.logger = logger
        self.budget = budget
        try self.epoll.add(wake, .input, token: Self.wakeToken)
        try self.epoll.add(listener, .input, token: Self.listenerToken)
    }

    /// Makes `run()` return at its next wake-up (the caller then wakes it).
    func requestStop() {
        self.stopping.store(true, ordering: .releasing)
    }

    /// Relays until asked to stop, then closes every connection and ends the stream.
    func run() {
        defer {
            for connection in self.connections.values {
                self.close(connection)
            }
            self.output.finish()
        }
        while !self.stopping.load(ordering: .acquiring) {
            let timeout: Int32 = self.acceptingAgainAt == nil ? -1 : 100
            guard let ready = self.epoll.wait(limit: 64, timeout: timeout) else {
                self.logger.error("varlink relay cannot wait for its sockets", metadata: ["errno": "\(errno)"])
                return
            }
            self.resumeAcceptingWhenDue()
            for event in ready {
                self.handle(event)
            }
        }
    }

    private func handle(_ event: Epoll.Ready) {
        switch event.token {
        case Self.wakeToken:
            var drained = [UInt8](repeating: 0, count: 64)
            while read(self.wake, &drained, drained.count) > 0 {}
        case Self.listenerToken:
            self.acceptWaiting()
        case let token:
            // A connection closed earlier in this batch may still have an event in it.
            guard let connection = self.connections[token >> 1] else { return }
            if token & 1 == 0 {
                self.socketReady(connection, event.events)
            } else {
                self.pipeReady(connection, event.events)
            }
        }
    }

    // MARK: Accepting

    private func acceptWaiting() {
        for _ in 0..<64 {
            switch ListeningSocket.accept(on: self.listener) {
            case .none:
                return
            case .failed(let code):
                self.pauseAccepting(SystemCallError("accept4", errno: code))
                return
            case .socket(let socket):
                self.adopt(socket)
            }
        }
    }

    /// Sets up the relay of a new connection and hands it to the server.
    private func adopt(_ socket: Int32) {
        let peer = PeerCredentials(socket: socket).map { VarlinkPeer($0, address: ListeningSocket.peerPath(of: socket)) }
        var made: [Int32] = []
        do {
            let pipe = try ListeningSocket.pipe()
            made = [pipe.read, pipe.write]
            made.append(try ListeningSocket.duplicate(socket))
            made.append(try ListeningSocket.duplicate(socket))
        } catch {
            made.forEach { _ = Glibc.close($0) }
            _ = Glibc.close(socket)
            self.pauseAccepting(error)
            return
        }
        let id = self.nextID
        self.nextID += 1
        let inbox = DescriptorInbox()
        let departure = ClientDeparture()
        let connection = RelayedSocket(id: id, socket: socket, pipe: made[1], inbox: inbox, departure: departure)
        do {
            // Hang-ups and errors are always reported; a half-close is end-of-file on reading.
            try self.epoll.add(socket, .input, token: connection.socketToken)
            try self.epoll.add(connection.pipe, [], token: connection.pipeToken)
        } catch {
            self.epoll.remove(socket)
            [socket, made[0], made[1], made[2], made[3]].forEach { _ = Glibc.close($0) }
            self.pauseAccepting(error)
            return
        }
        self.connections[id] = connection
        // A server that stopped listening drops it, which closes its ends: the pipe reports it.
        self.output.yield(AcceptedConnection(
            .init(input: made[0], output: made[2], sender: made[3]), peer: peer, inbox: inbox, departure: departure
        ))
    }

    /// Stops accepting for a while: out of descriptors, accepting again at once would spin.
    private func pauseAccepting(_ error: any Error) {
        self.budget.log(self.logger, .warning, "varlink server cannot accept a connection, pausing",
                        metadata: ["error": "\(error)"])
        try? self.epoll.modify(self.listener, [], token: Self.listenerToken)
        self.acceptingAgainAt = .now + Self.acceptPause
    }

    private func resumeAcceptingWhenDue() {
        guard let due = self.acceptingAgainAt, due <= .now else { return }
        self.acceptingAgainAt = nil
        try? self.epoll.modify(self.listener, .input, token: Self.listenerToken)
    }

    // MARK: Relaying

    private func socketReady(_ connection: RelayedSocket, _ events: Epoll.Events) {
        // A hang-up (the client closed) or an error (a reset) ends the connection at once, bytes
        // still unread or not: calls not yet started are dropped, and the running one is
        // cancelled, as its client is gone. A half-close is not one: it is read as end-of-file.
        guard events.isDisjoint(with: [.hangUp, .error]) else {
            return self.close(connection)
        }
        if events.contains(.input), connection.pending.isEmpty, !connection.inputEnded {
            self.receive(connection)
        }
    }

    /// Reads what the client sent (a few chunks at most) and passes it on to the pipe.
    private func receive(_ connection: RelayedSocket) {
        for _ in 0..<Self.readsPerTurn {
            let result = self.buffer.withUnsafeMutableBytes { DescriptorPassing.receive(into: $0, on: connection.socket) }
            let received: DescriptorPassing.Received
            switch result {
            case .failure(let error) where error.errno == EAGAIN || error.errno == EWOULDBLOCK:
                return
            case .failure:
                return self.close(connection)
            case .success(let value):
                received = value
            }
            guard !received.truncated, received.count > 0 else {
                received.descriptors.forEach { _ = Glibc.close($0) }
                if received.truncated {
                    self.refuse(connection, "varlink client passed more file descriptors than a message may carry")
                } else {
                    self.endInput(connection)
                }
                return
            }
            // The kernel ends a recvmsg that brings descriptors with the bytes they came with, so
            // they belong to the message holding the chunk's last byte (DescriptorPassing).
            if !received.descriptors.isEmpty,
               !connection.inbox.record(received.descriptors, at: connection.offset + received.count - 1)
            {
                return self.refuse(connection, "varlink client passed more file descriptors than its calls claimed")
            }
            connection.offset += received.count
            guard self.forward(connection, self.buffer[..<received.count]) else { return }
        }
    }

    /// Writes `bytes` to the pipe; false when they did not all fit (the rest waits, and the socket
    /// is not read until it is written) or the pipe is gone.
    private func forward(_ connection: RelayedSocket, _ bytes: ArraySlice<UInt8>) -> Bool {
        switch DescriptorWrite.once(bytes, to: connection.pipe) {
        case .wrote(let count) where count == bytes.count:
            return true
        case .wrote(let count):
            connection.pending = Array(bytes.dropFirst(count))
        case .full:
            connection.pending = Array(bytes)
        case .failed:
            self.close(connection)
            return false
        }
        // Still watched for hang-up (always reported), so a gone client cancels its running call.
        try? self.epoll.modify(connection.socket, [], token: connection.socketToken)
        try? self.epoll.modify(connection.pipe, .output, token: connection.pipeToken)
        return false
    }

    private func pipeReady(_ connection: RelayedSocket, _ events: Epoll.Events) {
        // An event from before the pipe was closed, in the same batch: nothing to do with it.
        guard !connection.inputEnded else { return }
        // NIO closed its end: the channel is closed, whoever closed it.
        guard events.isDisjoint(with: [.hangUp, .error]) else {
            return self.close(connection)
        }
        guard events.contains(.output), !connection.pending.isEmpty else { return }
        switch DescriptorWrite.once(connection.pending[...], to: connection.pipe) {
        case .wrote(let count):
            connection.pending.removeFirst(count)
        case .full:
            return
        case .failed:
            return self.close(connection)
        }
        if connection.pending.isEmpty {
            try? self.epoll.modify(connection.pipe, [], token: connection.pipeToken)
            try? self.epoll.modify(connection.socket, .input, token: connection.socketToken)
        }
    }

    /// The client shut down its sending side and all it sent is in the pipe (nothing is read
    /// while bytes wait for it): closing the pipe tells the server no more calls come, and it
    /// answers those it has. The socket stays open and watched for a hang-up only, the client
    /// going or the server done (ServedSocket), either way the end of the connection.
    private func endInput(_ connection: RelayedSocket) {
        self.epoll.remove(connection.pipe)
        _ = Glibc.close(connection.pipe)
        connection.inputEnded = true
        do {
            try self.epoll.modify(connection.socket, [], token: connection.socketToken)
        } catch {
            // Still watched for input, which end-of-file keeps ready: stop rather than spin.
            self.close(connection)
        }
    }

    /// Closes a connection whose client broke the descriptor rules, and says so (within budget).
    private func refuse(_ connection: RelayedSocket, _ message: Logger.Message) {
        self.budget.log(self.logger, .warning, message, metadata: ["varlink.relay": "\(connection.id)"])
        self.close(connection)
    }

    /// Stops relaying: the channel is closed (ClientDeparture; nothing happens if it already
    /// is), the client sees its socket closed once NIO's duplicates are closed too, and
    /// descriptors nobody claimed are closed.
    private func close(_ connection: RelayedSocket) {
        // Out of epoll first: NIO's duplicates keep the socket open, and with it the registration.
        self.epoll.remove(connection.socket)
        _ = Glibc.close(connection.socket)
        if !connection.inputEnded {
            self.epoll.remove(connection.pipe)
            _ = Glibc.close(connection.pipe)
        }
        connection.departure.depart()
        connection.inbox.closeAll()
        self.connections[connection.id] = nil
    }
}

/// One relayed connection, as the relay thread sees it.
final class RelayedSocket {
    let id: UInt64
    /// The accepted socket, read with recvmsg.
    let socket: Int32
    /// The write end of the pipe NIO reads; closed once `inputEnded`.
    let pipe: Int32
    let inbox: DescriptorInbox
    let departure: ClientDeparture
    /// The client shut down its sending side and the pipe is closed.
    var inputEnded = false
    /// Bytes received so far: the stream offset of the next one.
    var offset = 0
    /// Bytes received and not yet written to the full pipe.
    var pending: [UInt8] = []

    var socketToken: UInt64 { self.id << 1 }
    var pipeToken: UInt64 { self.id << 1 | 1 }

    init(id: UInt64, socket: Int32, pipe: Int32, inbox: DescriptorInbox, departure: ClientDeparture) {
        self.id = id
        self.socket = socket
        self.pipe = pipe
        self.inbox = inbox
        self.departure = departure
    }
}
