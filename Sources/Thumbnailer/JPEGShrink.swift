/// The factor libjpeg should shrink a JPEG by while decoding it, for a thumbnail of a box.
///
/// `vips_thumbnail` shrinks on load only when a factor of two is left over for its own resize
/// (640x480 to 256 px: none, so the whole image is decoded and then reduced 2.5 times). libjpeg's
/// scaled IDCT drops the high frequencies a smaller image cannot show, so it is a low-pass of its
/// own: decoding at 1/2, 1/4 or 1/8 up to the box and reducing the rest is as sharp and far cheaper
/// (bench/README.md, "Images").
enum JPEGShrink {
    /// The largest of 1, 2, 4 and 8 that still leaves the decoded image at least as large as the
    /// thumbnail, fitted inside the box (`fill` false) or covering it (`fill` true), and divides both
    /// sides; 1 when that is no more than `vips_thumbnail` shrinks by itself. Sizes are the image as
    /// shown (orientation applied) and the box, all positive.
    ///
    /// Dividing both sides keeps the shrunk image's aspect exactly the original's, so the thumbnail
    /// has the very size `vips_thumbnail` gives (libjpeg rounds a side up: 1/2 of 375 rows is 188, and
    /// a 256 px thumbnail of it would come out a row taller or shorter).
    static func factor(sourceWidth: Int32, sourceHeight: Int32, boxWidth: Int32, boxHeight: Int32, fill: Bool) -> Int32 {
        guard sourceWidth > 0, sourceHeight > 0, boxWidth > 0, boxHeight > 0 else { return 1 }
        let horizontal = Double(sourceWidth) / Double(boxWidth), vertical = Double(sourceHeight) / Double(boxHeight)
        // Fitting inside the box shrinks by the larger ratio; covering it, by the smaller.
        let needed = fill ? min(horizontal, vertical) : max(horizontal, vertical)
        var factor: Int32 = 1
        while factor < 8, Double(factor * 2) <= needed { factor *= 2 }
        while factor > 1, sourceWidth % factor != 0 || sourceHeight % factor != 0 { factor /= 2 }
        return factor > thumbnailFactor(needed) ? factor : 1
    }

    /// What `vips_thumbnail` (8.14) shrinks a JPEG by on load when the thumbnail is `needed` times
    /// smaller: it keeps a factor of two for its own resize. Where it already shrinks as much, its
    /// own path stands, with its own rounding of sides that do not divide.
    static func thumbnailFactor(_ needed: Double) -> Int32 {
        needed >= 16 ? 8 : needed >= 8 ? 4 : needed >= 4 ? 2 : 1
    }
}
