import Synchronization

/// The connection a stream runs on (VarlinkClient's); a protocol so the cursor can be tested alone.
package protocol VarlinkStreamConnection: Sendable {
    /// Takes the connection for one call or stream; throws `VarlinkClientError.busy` or `.closed`.
    func acquire() throws
    /// Gives it back for the next call.
    func release()
    /// Closes it: varlink's only way to stop a stream the server is still sending.
    func disconnect()
    /// Writes one message.
    func send(_ message: [UInt8]) async throws
    /// The next reply; a failure has closed the connection.
    func nextReply() async throws -> ReplyFrame
}

/// Drives one streaming call, one reply per pull.
package final class VarlinkStreamCursor<Connection: VarlinkStreamConnection, R: Decodable & Sendable>: Sendable {
    private enum Phase {
        case notStarted
        case streaming
        case finished
    }

    private let connection: Connection
    private let message: Result<[UInt8], any Error>
    private let phase = Mutex(Phase.notStarted)

    package init(connection: Connection, message: Result<[UInt8], any Error>) {
        self.connection = connection
        self.message = message
    }

    deinit {
        // Dropped midway: the server is still streaming into this connection.
        if self.phase.withLock({ $0 }) == .streaming {
            self.connection.disconnect()
        }
    }

    package func next() async throws -> R? {
        switch self.phase.withLock({ $0 }) {
        case .finished:
            return nil
        case .notStarted:
            self.phase.withLock { $0 = .finished }
            let message = try self.message.get()
            try self.connection.acquire()
            self.phase.withLock { $0 = .streaming }
            do {
                try await self.connection.send(message)
            } catch {
                self.end(closing: true)
                throw error
            }
        case .streaming:
            break
        }
        let reply: ReplyFrame
        do {
            reply = try await self.connection.nextReply()
        } catch {
            self.end(closing: true)
            throw error
        }
        if reply.error != nil || !reply.continues {
            self.end(closing: false)
        }
        do {
            return try reply.value(as: R.self)
        } catch let error as VarlinkError {
            throw error
        } catch {
            // The reply did not fit R; the rest of the stream would not either.
            self.end(closing: reply.continues)
            throw error
        }
    }

    private func end(closing: Bool) {
        let wasStreaming = self.phase.withLock { phase in
            defer { phase = .finished }
            return phase == .streaming
        }
        guard wasStreaming else { return }
        if closing {
            self.connection.disconnect()
        } else {
            self.connection.release()
        }
    }
}
