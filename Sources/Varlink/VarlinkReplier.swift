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
    /// What each reply is checked against in debug builds.
    private let contract: CallContract?

    init(call: VarlinkCall, output: ConnectionOutput) {
        self.oneway = call.oneway
        self.more = call.more
        self.state = ReplyState()
        self.output = output
        self.contract = call.contract
    }

    /// Sends one reply; `continues: true` promises more replies and needs a call with `more`.
    ///
    /// Throws `VarlinkError.expectedMore()` for `continues` on a call without `more`; a streaming
    /// handler that lets it propagate answers such a call with the standard ExpectedMore error.
    public func reply<P: Encodable & Sendable>(_ parameters: P, continues: Bool = false) async throws {
        guard let message = try self.claimReply(parameters, continues: continues) else { return }
        try await self.write(message)
    }

    /// Sends one reply whose string field `field` (empty in `parameters`) carries `bytes` as
    /// base64, made piece by piece as the client reads, so a large binary value (an image) is held
    /// once, as bytes, and never whole as JSON text. `field` must be a key that occurs once.
    public func reply<P: Encodable & Sendable>(
        _ parameters: P, base64 bytes: [UInt8], in field: String, continues: Bool = false
    ) async throws {
        if continues && !self.more && !self.oneway {
            throw VarlinkError.expectedMore()
        }
        // Built before the reply is claimed: a field that is not there leaves the call unanswered.
        let parametersJSON = try JSONWire.encodeObject(parameters)
        self.contract?.checkReply(parametersJSON)
        let message = try ReplyMessage(
            JSONWire.reply(parametersJSON: parametersJSON, continues: continues), base64: bytes, in: field)
        try self.state.claim(final: !continues)
        guard !self.oneway else { return }
        try await self.output.write(message)
    }

    /// Sends one reply with `fileDescriptors` attached (SCM_RIGHTS); its parameters name them by
    /// index, e.g. `"fileDescriptor": 0` for the first.
    ///
    /// The descriptors stay the caller's: the kernel takes its own references as the message is
    /// queued, so the caller may (and should) close them once this returns. At most 16 per reply;
    /// more throws `VarlinkFileDescriptorError.tooMany` and sends nothing. A oneway call's reply is
    /// dropped like any other. When the descriptors cannot be sent at all (not a Unix socket, or
    /// sendmsg refuses them), nothing was sent, this throws VarlinkFileDescriptorError, and the
    /// call can still be answered. While earlier replies are still unsent this waits for them (the
    /// descriptors must ride on this reply's first byte); a client that does not read them within
    /// a few seconds is disconnected, as one that leaves too many replies unread always is.
    public func reply<P: Encodable & Sendable>(
        _ parameters: P,
        fileDescriptors: [Int32],
        continues: Bool = false
    ) async throws {
        guard !fileDescriptors.isEmpty else {
            return try await self.reply(parameters, continues: continues)
        }
        guard fileDescriptors.count <= DescriptorPassing.maxPerMessage else {
            throw VarlinkFileDescriptorError.tooMany(count: fileDescriptors.count, limit: DescriptorPassing.maxPerMessage)
        }
        guard let message = try self.claimReply(parameters, continues: continues) else { return }
        do {
            try await self.output.write(message, fileDescriptors: fileDescriptors)
        } catch let error as VarlinkFileDescriptorError {
            // Nothing went out, so the call is still owed an answer (an error, say).
            if !continues {
                self.state.reopen()
            }
            throw error
        }
    }

    /// The reply message, once this reply is allowed; nil for a oneway call, whose replies are dropped.
    private func claimReply<P: Encodable>(_ parameters: P, continues: Bool) throws -> [UInt8]? {
        if continues && !self.more && !self.oneway {
            throw VarlinkError.expectedMore()
        }
        let parametersJSON = try JSONWire.encodeObject(parameters)
        self.contract?.checkReply(parametersJSON)
        try self.state.claim(final: !continues)
        if self.oneway {
            return nil
        }
        return JSONWire.reply(parametersJSON: parametersJSON, continues: continues)
    }

    /// Answers with an error unless the call already had its final reply.
    func fail(_ error: VarlinkError) async throws {
        guard !self.oneway, (try? self.state.claim(final: true)) != nil else { return }
        self.contract?.checkError(error)
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

    /// Undoes a final claim whose reply never went out; a sealed call stays sealed.
    func reopen() {
        self.phase.withLock { phase in
            if phase == .finished {
                phase = .open
            }
        }
    }
}
