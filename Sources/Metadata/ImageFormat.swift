/// Image container format decided from a file's first bytes, never from its name.
public enum ImageFormat: String, Sendable, CaseIterable {
    case jpeg, png, tiff, bigtiff, webp, heif, avif, gif, bmp, jxl, jp2, psd
}
