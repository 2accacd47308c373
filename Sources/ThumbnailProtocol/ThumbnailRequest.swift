/// One thumbnail job from photod to the worker; sent with exactly one file descriptor (the image).
///
/// Wire: `PTR1`, u32 body length (32), u64 id, u8 mode, u8 fit, u8 format, u8 flags,
/// u32 width, u32 height, u32 jpegQuality, u32 reserved, u32 reserved; little-endian.
/// The brief's field list adds up to 28 bytes but fixes the body at 32: the last 8 bytes are
/// reserved and must be zero, so the length stays 32 and a later field has room.
public struct ThumbnailRequest: Sendable, Equatable {
    /// The frame magic.
    public static let magic: [UInt8] = Array("PTR1".utf8)
    /// The only body length a request may declare.
    public static let bodyLength = 32
    /// The largest box edge a request may ask for.
    public static let maxDimension: UInt32 = 2048
    /// Flags bit 0: also return a PNG copy for the thumbnail cache.
    static let cacheCopyFlag: UInt8 = 1

    /// Chosen by photod; echoed in the response.
    public var id: UInt64
    /// Full decode or the embedded image when there is one.
    public var mode: ThumbnailMode
    /// Fit inside the box or fill it.
    public var fit: ThumbnailFit
    /// The encoding of the returned image.
    public var format: ThumbnailFormat
    /// Whether the response also carries a PNG copy for the cache.
    public var wantsCacheCopy: Bool
    /// The box width, 1...2048.
    public var width: UInt32
    /// The box height, 1...2048.
    public var height: UInt32
    /// JPEG quality 1...100 (sent for PNG too, and checked, so a request is always fully valid).
    public var jpegQuality: UInt32

    /// Makes a request; `encode()` does not check ranges, the receiver does.
    public init(id: UInt64, mode: ThumbnailMode = .full, fit: ThumbnailFit = .inside, format: ThumbnailFormat = .jpeg,
                wantsCacheCopy: Bool = false, width: UInt32, height: UInt32, jpegQuality: UInt32 = 85) {
        self.id = id
        self.mode = mode
        self.fit = fit
        self.format = format
        self.wantsCacheCopy = wantsCacheCopy
        self.width = width
        self.height = height
        self.jpegQuality = jpegQuality
    }

    /// The whole frame: magic, length and body.
    public func encode() -> [UInt8] {
        var writer = LittleEndianWriter(capacity: 8 + Self.bodyLength)
        writer.append(Self.magic)
        writer.u32(UInt32(Self.bodyLength))
        writer.u64(id)
        writer.u8(mode.rawValue)
        writer.u8(fit.rawValue)
        writer.u8(format.rawValue)
        writer.u8(wantsCacheCopy ? Self.cacheCopyFlag : 0)
        writer.u32(width)
        writer.u32(height)
        writer.u32(jpegQuality)
        writer.u32(0)
        writer.u32(0)
        return writer.bytes
    }
}

extension ThumbnailRequest: ThumbnailFrame {
    /// See `ThumbnailFrame`.
    public static var fixedBodyLength: Int { bodyLength }

    /// See `ThumbnailFrame`.
    public static func bodyLength(declared: UInt32) throws(ThumbnailProtocolError) -> Int {
        guard declared == UInt32(bodyLength) else {
            throw .badLength(declared: UInt64(declared), allowed: UInt64(bodyLength)...UInt64(bodyLength))
        }
        return bodyLength
    }

    /// See `ThumbnailFrame`.
    public static func checkFixed(_ fixed: ArraySlice<UInt8>, bodyLength: Int) throws(ThumbnailProtocolError) {
        _ = try decode(body: fixed)
    }

    /// See `ThumbnailFrame`.
    public static func decode(body: ArraySlice<UInt8>) throws(ThumbnailProtocolError) -> ThumbnailRequest {
        var reader = LittleEndianReader(body)
        let id = reader.u64()
        let mode: ThumbnailMode = try decodeEnum("mode", reader.u8())
        let fit: ThumbnailFit = try decodeEnum("fit", reader.u8())
        let format: ThumbnailFormat = try decodeEnum("format", reader.u8())
        let flags = reader.u8()
        try check("flags", flags, in: 0...cacheCopyFlag)
        let width = reader.u32(), height = reader.u32(), quality = reader.u32()
        try check("width", width, in: 1...maxDimension)
        try check("height", height, in: 1...maxDimension)
        try check("jpegQuality", quality, in: 1...100)
        try check("reserved", reader.u64(), in: 0...0)
        return ThumbnailRequest(id: id, mode: mode, fit: fit, format: format, wantsCacheCopy: flags == cacheCopyFlag,
                                width: width, height: height, jpegQuality: quality)
    }
}
