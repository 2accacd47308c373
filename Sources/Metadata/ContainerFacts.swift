/// What a container walk found: where the EXIF block is, and the pixel size the container itself declares.
struct ContainerFacts {
    /// An APP1-style payload: "Exif\0\0" followed by the TIFF-structured block, as libexif expects it.
    var exifPayload: ArraySlice<UInt8>?
    var width: Int?
    var height: Int?

    /// Locates the EXIF block for one container format; the single place where a new container plugs in.
    static func locate<Source: ByteSource>(_ format: ImageFormat, in source: inout Source) -> ContainerFacts {
        switch format {
        case .jpeg:
            return JPEGScanner.scan(&source)
        // TIFF-based files, PNG eXIf, WebP EXIF and HEIF/AVIF Exif items are located by a later issue;
        // until then these formats report their format only.
        case .png, .tiff, .bigtiff, .webp, .heif, .avif, .gif, .bmp, .jxl, .jp2, .psd:
            return ContainerFacts()
        }
    }
}
