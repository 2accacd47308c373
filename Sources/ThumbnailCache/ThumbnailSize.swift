/// The four sizes the thumbnail standard defines, each a square box with its own cache folder.
public enum ThumbnailSize: Int, CaseIterable, Sendable, Comparable {
    /// At most 128×128, in `normal`.
    case normal = 128
    /// At most 256×256, in `large`.
    case large = 256
    /// At most 512×512, in `x-large`.
    case xLarge = 512
    /// At most 1024×1024, in `xx-large`.
    case xxLarge = 1024

    /// The edge of the square box, in pixels.
    public var pixels: Int { rawValue }

    /// The folder under the cache root; the standard spells the larger two with a hyphen.
    public var folderName: String {
        switch self {
        case .normal: "normal"
        case .large: "large"
        case .xLarge: "x-large"
        case .xxLarge: "xx-large"
        }
    }

    /// The size whose box is exactly `width`×`height`; nil unless that is one of the four squares.
    public static func exact(width: Int, height: Int) -> ThumbnailSize? {
        guard width == height else { return nil }
        return ThumbnailSize(rawValue: width)
    }

    /// The smallest size whose box is at least `pixels` on a side, so a thumbnail scaled into
    /// it never has to be scaled up for display; nil when `pixels` is not positive or is over 1024.
    public static func smallest(covering pixels: Int) -> ThumbnailSize? {
        guard pixels > 0 else { return nil }
        return allCases.first { $0.pixels >= pixels }
    }

    /// Sizes order by their box.
    public static func < (lhs: ThumbnailSize, rhs: ThumbnailSize) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
