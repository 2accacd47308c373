/// Why a peer's byte stream is not varlink; the connection is closed, never answered.
public enum VarlinkProtocolError: Error, Equatable, Sendable, CustomStringConvertible {
    /// More than `limit` bytes arrived without a NUL terminator.
    case messageTooLarge(limit: Int)
    /// The message is not UTF-8 JSON as RFC 8259 defines it (no trailing commas, no comments).
    case invalidJSON
    /// An object in the message names the same key twice (the second one starts at `offset`).
    case duplicateKey(offset: Int)
    /// Arrays and objects nest deeper than `limit`.
    case nestedTooDeep(limit: Int)
    /// The message is JSON but not an object.
    case notAnObject
    /// A call without a non-empty string "method".
    case missingMethod
    /// A call with more than one of oneway, more and upgrade set.
    case conflictingFlags

    /// The reason as the server logs it.
    public var description: String {
        switch self {
        case .messageTooLarge(let limit): "message longer than \(limit) bytes without a NUL terminator"
        case .invalidJSON: "message is not valid UTF-8 JSON"
        case .duplicateKey(let offset): "message repeats a key in one object (byte \(offset))"
        case .nestedTooDeep(let limit): "message nests arrays and objects deeper than \(limit)"
        case .notAnObject: "message is not a JSON object"
        case .missingMethod: "call has no string \"method\""
        case .conflictingFlags: "call sets more than one of oneway, more, upgrade"
        }
    }
}

/// A frame splitter for NUL-terminated varlink messages: pure value type, no I/O.
///
/// `maxMessageBytes` counts the JSON text without its NUL terminator. The limit is enforced as
/// soon as more bytes than that are pending without a NUL, so a peer cannot make us buffer an
/// endless message. After the first error the decoder stays failed: the stream has no resync point.
public struct VarlinkFrameDecoder: Sendable {
    /// The longest message accepted, in bytes, not counting the NUL.
    public let maxMessageBytes: Int
    private var buffer: [UInt8] = []
    /// Index of the first byte not yet returned in a frame.
    private var start = 0
    /// How many bytes after `start` are known to hold no NUL, so a message arriving in many
    /// small reads is scanned once, not once per read.
    private var scanned = 0
    private var failure: VarlinkProtocolError?
    /// Bytes of the stream dropped from the front of `buffer`: the stream offset of its first.
    private var dropped = 0
    /// Where the frame `nextFrame()` returned last lies in the stream (counting every byte
    /// appended, from 0), its NUL included: the server matches passed descriptors to it.
    public private(set) var lastFrameOffsets: Range<Int> = 0..<0

    /// Creates a decoder that rejects messages longer than `maxMessageBytes`.
    public init(maxMessageBytes: Int = 1 << 20) {
        self.maxMessageBytes = maxMessageBytes
    }

    /// Adds bytes read from the peer.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        if self.start > 0 {
            // Drop consumed frames now, before growing, so the buffer holds at most the pending
            // partial message plus one read.
            self.buffer.removeSubrange(0..<self.start)
            self.dropped += self.start
            self.start = 0
        }
        self.buffer.append(contentsOf: bytes)
    }

    /// The next complete message without its NUL, or nil until more bytes arrive.
    public mutating func nextFrame() throws(VarlinkProtocolError) -> [UInt8]? {
        if let failure = self.failure {
            throw failure
        }
        let searchFrom = self.start + self.scanned
        if let nul = self.buffer[searchFrom...].firstIndex(of: 0) {
            guard nul - self.start <= self.maxMessageBytes else {
                try self.fail()
            }
            let frame = Array(self.buffer[self.start..<nul])
            self.lastFrameOffsets = (self.dropped + self.start)..<(self.dropped + nul + 1)
            self.start = nul + 1
            self.scanned = 0
            if self.start == self.buffer.count {
                self.dropped += self.buffer.count
                self.buffer.removeAll(keepingCapacity: true)
                self.start = 0
            }
            return frame
        }
        self.scanned = self.buffer.count - self.start
        guard self.scanned <= self.maxMessageBytes else {
            try self.fail()
        }
        return nil
    }

    /// Bytes received but not yet returned in a frame.
    public var pendingByteCount: Int { self.buffer.count - self.start }

    private mutating func fail() throws(VarlinkProtocolError) -> Never {
        let error = VarlinkProtocolError.messageTooLarge(limit: self.maxMessageBytes)
        self.failure = error
        // Free the oversize data at once; the connection is about to close anyway.
        self.buffer = []
        self.start = 0
        self.scanned = 0
        throw error
    }
}
