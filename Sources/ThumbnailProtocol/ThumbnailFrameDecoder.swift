/// A frame kind the decoder can read: its magic, its length rules and its body.
public protocol ThumbnailFrame: Sendable {
    /// The four bytes every frame of this kind starts with.
    static var magic: [UInt8] { get }
    /// How much of the body `checkFixed` needs; never more than any valid body.
    static var fixedBodyLength: Int { get }
    /// The body length to wait for, or an error when `declared` is out of range.
    static func bodyLength(declared: UInt32) throws(ThumbnailProtocolError) -> Int
    /// Checks the fixed part of a body before the rest is buffered.
    static func checkFixed(_ fixed: ArraySlice<UInt8>, bodyLength: Int) throws(ThumbnailProtocolError)
    /// Decodes a whole body already checked by `checkFixed`.
    static func decode(body: ArraySlice<UInt8>) throws(ThumbnailProtocolError) -> Self
}

/// Turns a byte stream into frames, checking magic, lengths and fields before it buffers a body.
///
/// After an error the decoder stays failed: the stream has lost its framing.
public struct ThumbnailFrameDecoder<Frame: ThumbnailFrame>: Sendable {
    private var buffer: [UInt8] = []
    private var start = 0
    /// The length of the frame being buffered once its header and fixed fields passed.
    private var pendingBody: Int?
    private var failure: ThumbnailProtocolError?

    /// A decoder at the start of a stream.
    public init() {}

    /// Bytes received but not yet part of a returned frame.
    public var bufferedCount: Int { buffer.count - start }

    /// Appends `bytes` and returns every frame they complete, in order.
    public mutating func feed(_ bytes: some Collection<UInt8>) throws(ThumbnailProtocolError) -> [Frame] {
        if let failure { throw failure }
        buffer.append(contentsOf: bytes)
        var frames: [Frame] = []
        do {
            while let frame = try next() { frames.append(frame) }
        } catch {
            failure = error
            throw error
        }
        // Compact only when worthwhile, so feeding byte by byte stays linear.
        if start == buffer.count || start > 65_536 {
            buffer.removeFirst(start)
            start = 0
        }
        return frames
    }

    private mutating func next() throws(ThumbnailProtocolError) -> Frame? {
        let available = buffer.count - start
        let bodyLength: Int
        if let pendingBody {
            bodyLength = pendingBody
        } else {
            let seen = min(available, 4)
            guard buffer[start..<start + seen].elementsEqual(Frame.magic.prefix(seen)) else {
                throw .badMagic(Array(buffer[start..<start + seen]))
            }
            guard available >= 8 else { return nil }
            var reader = LittleEndianReader(buffer[start + 4..<start + 8])
            bodyLength = try Frame.bodyLength(declared: reader.u32())
            guard available >= 8 + Frame.fixedBodyLength else { return nil }
            try Frame.checkFixed(buffer[start + 8..<start + 8 + Frame.fixedBodyLength], bodyLength: bodyLength)
            pendingBody = bodyLength
            // Room for the checked frame at once: doubling towards a 17 MB image would hold up
            // to twice it and copy it several times.
            buffer.reserveCapacity(start + 8 + bodyLength)
        }
        guard available >= 8 + bodyLength else { return nil }
        let frame = try Frame.decode(body: buffer[start + 8..<start + 8 + bodyLength])
        start += 8 + bodyLength
        pendingBody = nil
        return frame
    }
}
