/// Decides the container format from magic bytes alone.
enum FormatSniffer {
    /// Enough for every signature plus a typical ISO-BMFF `ftyp` brand list.
    static let headLength = 256

    private static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    private static let tiffLittle: [UInt8] = [0x49, 0x49, 0x2A, 0x00]
    private static let tiffBig: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A]
    /// Olympus ORF ("IIRO", "IIRS", "MMOR") and Panasonic RW2 ("IIU\0"): TIFF structure, another magic.
    private static let rawTIFFs: [[UInt8]] = [Array("IIRO".utf8), Array("IIRS".utf8), Array("MMOR".utf8), [0x49, 0x49, 0x55, 0x00]]
    /// exiv2's metadata sidecar: JPEG segments after "\u{FF}\u{01}Exiv2".
    private static let exv: [UInt8] = [0xFF, 0x01] + Array("Exiv2".utf8)
    private static let raf: [UInt8] = Array("FUJIFILMCCD-RAW".utf8)
    private static let crw: [UInt8] = Array("HEAPCCDR".utf8)
    private static let mrw: [UInt8] = [0x00] + Array("MRM".utf8)
    private static let x3f: [UInt8] = Array("FOVb".utf8)
    private static let bigTIFFLittle: [UInt8] = [0x49, 0x49, 0x2B, 0x00]
    private static let bigTIFFBig: [UInt8] = [0x4D, 0x4D, 0x00, 0x2B]
    private static let riff: [UInt8] = Array("RIFF".utf8)
    private static let webp: [UInt8] = Array("WEBP".utf8)
    private static let ftyp: [UInt8] = Array("ftyp".utf8)
    private static let gif: [UInt8] = Array("GIF8".utf8)
    private static let bmp: [UInt8] = Array("BM".utf8)
    private static let psd: [UInt8] = Array("8BPS".utf8)
    private static let jxlCodestream: [UInt8] = [0xFF, 0x0A]
    private static let jxlBox: [UInt8] = [0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]
    private static let jp2Box: [UInt8] = [0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20, 0x0D, 0x0A, 0x87, 0x0A]

    /// The format whose signature starts `head`, nil for anything else (text, video, truncated headers).
    static func format(of head: ArraySlice<UInt8>) -> ImageFormat? {
        if head.matches([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head.matches(png) { return .png }
        if head.matches(tiffLittle) || head.matches(tiffBig) || rawTIFFs.contains(where: { head.matches($0) }) { return .tiff }
        if head.matches(bigTIFFLittle) || head.matches(bigTIFFBig) { return .bigtiff }
        if head.matches(riff) && head.matches(webp, at: 8) { return .webp }
        if head.matches(ftyp, at: 4) { return isoMediaFormat(of: head) }
        if head.matches(gif) { return .gif }
        if head.matches(psd) { return .psd }
        if head.matches(jxlCodestream) || head.matches(jxlBox) { return .jxl }
        if head.matches(jp2Box) { return .jp2 }
        if head.matches(exv) { return .exv }
        if head.matches(raf) { return .raf }
        if head.matches([0x49, 0x49, 0x1A, 0x00]) && head.matches(crw, at: 6) { return .crw }
        if head.matches(mrw) { return .mrw }
        if head.matches(x3f) { return .x3f }
        if head.matches(bmp) { return .bmp }
        return nil
    }

    /// HEIF, AVIF or CR3 from the `ftyp` brands; an AVIF brand anywhere wins, since AVIF files also list HEIF brands.
    private static func isoMediaFormat(of head: ArraySlice<UInt8>) -> ImageFormat? {
        guard let declaredSize = head.uint32BE(at: 0) else { return nil }
        var brandsStart = 8
        var boxEnd: Int
        switch declaredSize {
        case 0:
            boxEnd = head.count
        case 1:
            // A 64-bit size follows the type; a real ftyp never needs it, but it is legal.
            guard let high = head.uint32BE(at: 8), let low = head.uint32BE(at: 12) else { return nil }
            brandsStart = 16
            boxEnd = high == 0 ? Int(low) : head.count
        default:
            boxEnd = Int(declaredSize)
        }
        boxEnd = min(boxEnd, head.count)

        var sawHEIF = false
        // Major brand at brandsStart, minor version after it, then compatible brands.
        var position = brandsStart
        while position + 4 <= boxEnd {
            if position != brandsStart + 4, let brand = head.uint32BE(at: position) {
                if avifBrands.contains(brand) { return .avif }
                if brand == canonRawBrand { return .cr3 }
                if heifBrands.contains(brand) { sawHEIF = true }
            }
            position += 4
        }
        return sawHEIF ? .heif : nil
    }

    private static let canonRawBrand = fourCC("crx ")
    private static let avifBrands: Set<UInt32> = [fourCC("avif"), fourCC("avis")]
    private static let heifBrands: Set<UInt32> = [
        fourCC("heic"), fourCC("heix"), fourCC("heim"), fourCC("heis"), fourCC("hevc"), fourCC("hevx"),
        fourCC("mif1"), fourCC("msf1"),
    ]
}
