import Synchronization

/// Sends replies for one call; replies to oneway calls are dropped.
///
/// The call ends with the first reply whose `continues` is false. Replying again after that, or
/// after the handler has returned, throws instead of writing: a stray message would be read as
/// the answer to the connection's next call.
public struct VarlinkReplier: Sendable {
    private let oneway: Bool
    private let more: Bool
    private let state: ReplyState
    private let output: ConnectionOutput

    init(call: VarlinkCall, output: ConnectionOutput) {
        self.oneway = call.oneway
        self.more = call.more
        self.state = ReplyState()
        self.output = output
    }

    /// Sends one reply; `continues: true` promises more replies and needs a call with `more`.
    ///
    /// Throws `VarlinkError.expectedMore()` for `continues` on a call without `more`; a streaming
    /// handler that lets it propagate answers such a call with the standard ExpectedMore error.
    public func reply<P: Encodable & Sendable>(_ parameters: P, continues: Bool = false) async throws {
        if continues && !self.more && !self.oneway {
            throw VarlinkError.expectedMore()
        }
        let parametersJSON = try JSONWire.encodeObject(parameters)
        try self.state.claim(final: !continues)
        if self.oneway {
            return
        }
        try await self.write(JSONWire.reply(parametersJSON: parametersJSON, continues: continues))
    }

    /// Answers with an error unless the call already had its final reply.
    func fail(_ error: VarlinkError) async throws {
        guard !self.oneway, (try? self.state.claim(final: true)) != nil else { return }
        try await self.write(JSONWire.errorReply(error))
    }

    /// Whether the handler still owes the client a final reply.
    var isAwaitingFinalReply: Bool {
        !self.oneway && self.state.isOpen
    }

    /// Refuses any later reply: the connection has moved on to the next call.
    func seal() {
        self.state.seal()
    }

    private func write(_ message: [UInt8]) async throws {
        try await self.output.write(message)
    }
}

/// Thrown when a handler replies after its call is over; logged as a handler bug.
struct ReplyAfterEndError: Error, CustomStringConvertible {
    var description: String { "reply after the call's final reply or after the handler returned" }
}

/// Shared by the copies of one call's replier.
private final class ReplyState: Sendable {
    private enum Phase {
        case open
        case finished
        case sealed
    }

    private let phase = Mutex(Phase.open)

    var isOpen: Bool {
        self.phase.withLock { $0 == .open }
    }

    func claim(final: Bool) throws {
        let allowed = self.phase.withLock { phase in
            guard phase == .open else { return false }
            if final {
                phase = .finished
            }
            return true
        }
        guard allowed else { throw ReplyAfterEndError() }
    }

    func seal() {
        self.phase.withLock { $0 = .sealed }
    }
}
