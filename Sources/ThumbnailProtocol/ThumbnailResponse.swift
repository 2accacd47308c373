/// The worker's answer to one request, or its hello (id 0) once its sandbox is in place.
///
/// Wire: `PTW1`, u32 body length (44...48 MiB), u64 id, u8 status, u8 format, u8 flags, u8 reserved,
/// u32 width, u32 height, u32 sourceWidth, u32 sourceHeight, u64 peakRSSKiB, u32 imageLength,
/// u32 cacheLength, then the image bytes and the cache bytes; little-endian.
public struct ThumbnailResponse: Sendable, Equatable {
    /// The frame magic.
    public static let magic: [UInt8] = Array("PTW1".utf8)
    /// The body bytes before the image: everything a receiver checks before it buffers the rest.
    public static let fixedLength = 44
    /// The largest body a response may declare.
    public static let maxBodyLength = 48 * 1024 * 1024
    /// The longest error message (or hello text) a non-image payload may carry.
    public static let maxMessageLength = 1024
    /// Flags bit 0: the image embedded in the file was used.
    static let embeddedFlag: UInt8 = 1

    /// The request's id; 0 for the hello.
    public var id: UInt64
    /// Whether the image bytes are an image or a message.
    public var status: ThumbnailStatus
    /// The encoding of `image` when `status` is `.ok`.
    public var format: ThumbnailFormat
    /// Whether the image embedded in the file (not a full decode) was thumbnailed.
    public var usedEmbedded: Bool
    /// The result's width.
    public var width: UInt32
    /// The result's height.
    public var height: UInt32
    /// The width of the original as loaded (after orientation), 0 if unknown.
    public var sourceWidth: UInt32
    /// The height of the original as loaded (after orientation), 0 if unknown.
    public var sourceHeight: UInt32
    /// The worker's peak resident set so far, in KiB.
    public var peakRSSKiB: UInt64
    /// The encoded thumbnail, or for a non-ok status (and the hello) UTF-8 text.
    public var image: [UInt8]
    /// The PNG copy for the thumbnail cache when the request asked for one, else empty.
    public var cache: [UInt8]

    /// Makes a response; `encode()` does not check ranges, the receiver does.
    public init(id: UInt64, status: ThumbnailStatus, format: ThumbnailFormat = .jpeg, usedEmbedded: Bool = false,
                width: UInt32 = 0, height: UInt32 = 0, sourceWidth: UInt32 = 0, sourceHeight: UInt32 = 0,
                peakRSSKiB: UInt64 = 0, image: [UInt8] = [], cache: [UInt8] = []) {
        self.id = id
        self.status = status
        self.format = format
        self.usedEmbedded = usedEmbedded
        self.width = width
        self.height = height
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.peakRSSKiB = peakRSSKiB
        self.image = image
        self.cache = cache
    }

    /// A failure carrying `message`, made safe to log: control characters become spaces, cut to 1024 bytes.
    public static func failure(id: UInt64, status: ThumbnailStatus, message: String, peakRSSKiB: UInt64) -> Self {
        ThumbnailResponse(id: id, status: status, peakRSSKiB: peakRSSKiB, image: messageBytes(message))
    }

    /// The hello the worker sends once, right after its sandbox is in place.
    public static func hello(_ text: String, peakRSSKiB: UInt64) -> Self {
        ThumbnailResponse(id: 0, status: .ok, peakRSSKiB: peakRSSKiB, image: messageBytes(text))
    }

    /// The text of a failure or the hello.
    public var message: String { String(decoding: image, as: UTF8.self) }

    /// The whole frame: magic, length and body.
    public func encode() -> [UInt8] {
        let body = Self.fixedLength + image.count + cache.count
        var writer = LittleEndianWriter(capacity: 8 + body)
        writer.append(Self.magic)
        writer.u32(UInt32(truncatingIfNeeded: body))
        writer.u64(id)
        writer.u8(status.rawValue)
        writer.u8(format.rawValue)
        writer.u8(usedEmbedded ? Self.embeddedFlag : 0)
        writer.u8(0)
        for value in [width, height, sourceWidth, sourceHeight] { writer.u32(value) }
        writer.u64(peakRSSKiB)
        writer.u32(UInt32(truncatingIfNeeded: image.count))
        writer.u32(UInt32(truncatingIfNeeded: cache.count))
        writer.append(image)
        writer.append(cache)
        return writer.bytes
    }

    /// Control characters become spaces and the text is cut at a character boundary within the limit.
    static func messageBytes(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        for scalar in text.unicodeScalars {
            let clean = scalar.properties.generalCategory == .control ? " " : scalar
            let utf8 = Array(String(clean).utf8)
            if bytes.count + utf8.count > maxMessageLength { break }
            bytes += utf8
        }
        return bytes
    }
}

extension ThumbnailResponse: ThumbnailFrame {
    /// See `ThumbnailFrame`.
    public static var fixedBodyLength: Int { fixedLength }

    /// See `ThumbnailFrame`.
    public static func bodyLength(declared: UInt32) throws(ThumbnailProtocolError) -> Int {
        let allowed = UInt64(fixedLength)...UInt64(maxBodyLength)
        guard allowed.contains(UInt64(declared)) else { throw .badLength(declared: UInt64(declared), allowed: allowed) }
        return Int(declared)
    }

    /// See `ThumbnailFrame`.
    public static func checkFixed(_ fixed: ArraySlice<UInt8>, bodyLength: Int) throws(ThumbnailProtocolError) {
        _ = try header(fixed, bodyLength: bodyLength)
    }

    /// See `ThumbnailFrame`.
    public static func decode(body: ArraySlice<UInt8>) throws(ThumbnailProtocolError) -> ThumbnailResponse {
        var (response, imageLength, cacheLength) = try header(body, bodyLength: body.count)
        var reader = LittleEndianReader(body)
        _ = reader.take(fixedLength)
        response.image = reader.take(imageLength)
        response.cache = reader.take(cacheLength)
        return response
    }

    /// The fixed fields, checked, with empty payloads and the payloads' declared lengths.
    private static func header(_ body: ArraySlice<UInt8>, bodyLength: Int)
        throws(ThumbnailProtocolError) -> (Self, image: Int, cache: Int) {
        var reader = LittleEndianReader(body)
        let id = reader.u64()
        let status: ThumbnailStatus = try decodeEnum("status", reader.u8())
        let format: ThumbnailFormat = try decodeEnum("format", reader.u8())
        let flags = reader.u8()
        try check("flags", flags, in: 0...embeddedFlag)
        try check("reserved", reader.u8(), in: 0...0)
        let width = reader.u32(), height = reader.u32()
        try check("width", width, in: 0...ThumbnailRequest.maxDimension)
        try check("height", height, in: 0...ThumbnailRequest.maxDimension)
        let sourceWidth = reader.u32(), sourceHeight = reader.u32(), peak = reader.u64()
        let imageLength = Int(reader.u32()), cacheLength = Int(reader.u32())
        let payload = bodyLength - fixedLength
        try check("imageLength + cacheLength", imageLength + cacheLength, in: payload...payload)
        if status != .ok || id == 0 {
            try check("message length", imageLength, in: 0...maxMessageLength)
            try check("cacheLength", cacheLength, in: 0...0)
        }
        let response = ThumbnailResponse(
            id: id, status: status, format: format, usedEmbedded: flags == embeddedFlag, width: width, height: height,
            sourceWidth: sourceWidth, sourceHeight: sourceHeight, peakRSSKiB: peak)
        return (response, imageLength, cacheLength)
    }
}
