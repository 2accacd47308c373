/// Image container format decided from a file's first bytes, never from its name.
///
/// TIFF-based raws (DNG, NEF, CR2, ARW, ORF, RW2, PEF, SRW, ...) are `.tiff`: their bytes are a TIFF file.
public enum ImageFormat: String, Sendable, CaseIterable {
    case jpeg, png, tiff, bigtiff, webp, heif, avif, gif, bmp, jxl, jp2, psd, cr3, crw, raf, mrw, x3f, exv
}
