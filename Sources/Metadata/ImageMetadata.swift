/// Where a description was read from (only .exif so far; the rest are the seam for XMP, IPTC and sidecars).
public enum DescriptionSource: String, Sendable {
    case exif, xmp, iptc, sidecar
}

/// What the metadata reader found in one file: raw facts, no interpretation.
public struct ImageMetadata: Sendable, Equatable {
    /// nil: the bytes are not a recognised image format.
    public var format: ImageFormat?
    /// EXIF IFD0 ImageDescription up to the first NUL; [] when empty or all NUL; nil when absent or unreadable.
    public var description: [UInt8]?
    /// .exif whenever `description` is set.
    public var descriptionSource: DescriptionSource?
    /// DateTimeOriginal as "2021-05-01T10:00:00", plus "+02:00" when OffsetTimeOriginal is valid.
    public var taken: String?
    /// Pixel size: the JPEG frame header first, else EXIF PixelXDimension/PixelYDimension.
    public var width: Int?
    /// Pixel size: the JPEG frame header first, else EXIF PixelXDimension/PixelYDimension.
    public var height: Int?
    /// IFD0 Orientation, only when it is 1...8.
    public var orientation: Int?
    /// IFD0 Make up to the first NUL, trailing spaces trimmed; nil when absent or empty.
    public var make: [UInt8]?
    /// IFD0 Model up to the first NUL, trailing spaces trimmed; nil when absent or empty.
    public var model: [UInt8]?

    /// Creates a value with every fact given explicitly; anything left out is unknown.
    public init(
        format: ImageFormat? = nil,
        description: [UInt8]? = nil,
        descriptionSource: DescriptionSource? = nil,
        taken: String? = nil,
        width: Int? = nil,
        height: Int? = nil,
        orientation: Int? = nil,
        make: [UInt8]? = nil,
        model: [UInt8]? = nil
    ) {
        self.format = format
        self.description = description
        self.descriptionSource = descriptionSource
        self.taken = taken
        self.width = width
        self.height = height
        self.orientation = orientation
        self.make = make
        self.model = model
    }
}
