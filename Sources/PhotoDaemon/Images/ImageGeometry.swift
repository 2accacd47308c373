import PhotoAPI

/// Sizes a delivered image is judged by: what a high-quality request would give for a box, so
/// anything smaller is `degraded`.
struct ImageGeometry: Sendable, Equatable {
    var width: Int
    var height: Int

    /// What scaling `original` into the box gives, never upscaled; the box itself when the
    /// original size is unknown.
    static func expected(box: ImageGeometry, fill: Bool, original: ImageGeometry?) -> ImageGeometry {
        guard let original, original.width > 0, original.height > 0 else { return box }
        let scaleX = Double(box.width) / Double(original.width)
        let scaleY = Double(box.height) / Double(original.height)
        let scale = min(1, fill ? max(scaleX, scaleY) : min(scaleX, scaleY))
        let width = max(1, Int((Double(original.width) * scale).rounded()))
        let height = max(1, Int((Double(original.height) * scale).rounded()))
        return fill ? ImageGeometry(width: min(width, box.width), height: min(height, box.height))
            : ImageGeometry(width: width, height: height)
    }

    /// The original's size as displayed: EXIF orientations 5 to 8 swap width and height.
    static func displayed(width: Int?, height: Int?, orientation: Int?) -> ImageGeometry? {
        guard let width, let height else { return nil }
        return (5...8).contains(orientation ?? 1) ? ImageGeometry(width: height, height: width)
            : ImageGeometry(width: width, height: height)
    }

    /// True when this image is smaller than `expected` (a pixel of rounding aside).
    func isSmaller(than expected: ImageGeometry) -> Bool {
        width + 1 < expected.width && height + 1 < expected.height
    }

    /// This size with width and height swapped when `orientation` turns the picture a quarter.
    func oriented(_ orientation: Int) -> ImageGeometry {
        (5...8).contains(orientation) ? ImageGeometry(width: height, height: width) : self
    }
}
