import Synchronization
import VarlinkCore

/// Drives one streaming call of a BlockingConnection, one reply per pull.
final class BlockingStreamCursor<P: Encodable & Sendable, R: Decodable & Sendable>: Sendable {
    private enum Phase {
        case notStarted
        case streaming
        case finished
    }

    private let connection: BlockingConnection
    private let method: String
    private let parameters: P
    private let phase = Mutex(Phase.notStarted)

    init(connection: BlockingConnection, method: String, parameters: P) {
        self.connection = connection
        self.method = method
        self.parameters = parameters
    }

    deinit {
        // Dropped midway: the server is still streaming into this connection.
        if self.phase.withLock({ $0 }) == .streaming {
            self.connection.shutDown()
        }
    }

    func next() async throws -> R? {
        switch self.phase.withLock({ $0 }) {
        case .finished:
            return nil
        case .notStarted:
            self.phase.withLock { $0 = .finished }
            try self.connection.acquire()
            self.phase.withLock { $0 = .streaming }
            do {
                try await self.connection.run { [method, parameters] client in try client.startStream(method, parameters) }
            } catch {
                self.end()
                throw error
            }
        case .streaming:
            break
        }
        do {
            let (reply, last) = try await self.connection.run { client in
                (try client.nextReply(as: R.self), !client.isStreaming)
            }
            if last { self.end() }
            return reply
        } catch {
            // The client has closed its socket when the conversation cannot go on; an error
            // reply, or a last reply that does not fit R, leaves it usable.
            self.end()
            throw error
        }
    }

    /// Gives the connection back for other calls.
    private func end() {
        let wasStreaming = self.phase.withLock { phase in
            defer { phase = .finished }
            return phase == .streaming
        }
        if wasStreaming { self.connection.release() }
    }
}
