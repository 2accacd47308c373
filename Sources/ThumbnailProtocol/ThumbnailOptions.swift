/// How the worker obtains the pixels to thumbnail.
public enum ThumbnailMode: UInt8, Sendable, CaseIterable {
    /// Decode the full image.
    case full = 0
    /// Prefer an image already in the file (a HEIF/AVIF thumbnail item), falling back to a full decode.
    case embedded = 1
}

/// How the result relates to the requested box.
public enum ThumbnailFit: UInt8, Sendable, CaseIterable {
    /// Scale to fit inside the box, keeping the aspect ratio.
    case inside = 0
    /// Cover the box and centre-crop to exactly the box (never upscaling a smaller original).
    case fill = 1
}

/// The encoding of the returned image.
public enum ThumbnailFormat: UInt8, Sendable, CaseIterable {
    /// Baseline JPEG at the requested quality.
    case jpeg = 0
    /// PNG.
    case png = 1
}

/// The outcome of one request.
public enum ThumbnailStatus: UInt8, Sendable, CaseIterable {
    /// The image bytes hold the thumbnail.
    case ok = 0
    /// The file could not be decoded or thumbnailed; the image bytes hold the reason.
    case undecodable = 1
    /// The request itself was invalid; the image bytes hold the reason.
    case badRequest = 2
}

/// Decodes a one-byte enumeration field, naming it in the error.
func decodeEnum<E: RawRepresentable<UInt8>>(_ name: String, _ raw: UInt8) throws(ThumbnailProtocolError) -> E {
    guard let value = E(rawValue: raw) else { throw .badField(name: name, value: UInt64(raw)) }
    return value
}
