/// Where a description was read from: a tag inside the file, or the XMP sidecar beside it.
public enum DescriptionSource: String, Sendable, CaseIterable {
    case exif, xmp, iptc, sidecar
}

/// Every description a file holds, one per embedded source, before any choice between them.
///
/// Which one names the asset's group is the daemon's decision (source order and normalization
/// are configuration); the reader only reports what is there.
public struct DescriptionCandidates: Sendable, Equatable {
    /// EXIF IFD0 ImageDescription up to the first NUL; [] when empty or all NUL; nil when absent or unreadable.
    public var exif: [UInt8]?
    /// XMP `dc:description` (the x-default alternative, else the first one) as UTF-8, entities decoded.
    public var xmp: [UInt8]?
    /// IPTC Caption-Abstract (2:120) as UTF-8, decoded from its coded character set (Latin-1 when none is declared).
    public var iptc: [UInt8]?

    /// Creates candidates; a source left out was not found.
    public init(exif: [UInt8]? = nil, xmp: [UInt8]? = nil, iptc: [UInt8]? = nil) {
        self.exif = exif
        self.xmp = xmp
        self.iptc = iptc
    }

    /// The candidate for one embedded source; always nil for `.sidecar`, which lives in another file.
    public subscript(source: DescriptionSource) -> [UInt8]? {
        switch source {
        case .exif: exif
        case .xmp: xmp
        case .iptc: iptc
        case .sidecar: nil
        }
    }
}

/// What the metadata reader found in one file: raw facts, no interpretation.
public struct ImageMetadata: Sendable, Equatable {
    /// nil: the bytes are not a recognised image format.
    public var format: ImageFormat?
    /// The descriptions the file's own metadata holds.
    public var descriptions: DescriptionCandidates
    /// DateTimeOriginal as "2021-05-01T10:00:00", plus "+02:00" when OffsetTimeOriginal is valid.
    public var taken: String?
    /// Pixel size: the container's own header first, else EXIF PixelXDimension/PixelYDimension.
    public var width: Int?
    /// Pixel size: the container's own header first, else EXIF PixelXDimension/PixelYDimension.
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
        descriptions: DescriptionCandidates = DescriptionCandidates(),
        taken: String? = nil,
        width: Int? = nil,
        height: Int? = nil,
        orientation: Int? = nil,
        make: [UInt8]? = nil,
        model: [UInt8]? = nil
    ) {
        self.format = format
        self.descriptions = descriptions
        self.taken = taken
        self.width = width
        self.height = height
        self.orientation = orientation
        self.make = make
        self.model = model
    }
}
