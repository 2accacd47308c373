import Metadata
import Testing

/// A minimal header and the format it must be recognised as.
struct SniffCase: Sendable, CustomTestStringConvertible {
    let name: String
    let bytes: [UInt8]
    let format: ImageFormat?

    var testDescription: String { name }

    static func ftyp(_ major: String, _ compatible: [String]) -> [UInt8] {
        let brands = ([major, "\0\0\0\0"] + compatible).flatMap { Array($0.utf8) }
        let size = 8 + brands.count
        return [0, 0, 0, UInt8(size)] + Array("ftyp".utf8) + brands + [0, 0, 0, 8] + Array("meta".utf8)
    }

    static let all: [SniffCase] = [
        SniffCase(name: "JPEG", bytes: [0xFF, 0xD8, 0xFF, 0xE0], format: .jpeg),
        SniffCase(name: "PNG", bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13], format: .png),
        SniffCase(name: "TIFF II", bytes: [0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0], format: .tiff),
        SniffCase(name: "TIFF MM", bytes: [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8], format: .tiff),
        SniffCase(name: "BigTIFF II", bytes: [0x49, 0x49, 0x2B, 0x00, 8, 0, 0, 0], format: .bigtiff),
        SniffCase(name: "BigTIFF MM", bytes: [0x4D, 0x4D, 0x00, 0x2B, 0, 8, 0, 0], format: .bigtiff),
        SniffCase(name: "WebP", bytes: Array("RIFF".utf8) + [36, 0, 0, 0] + Array("WEBPVP8 ".utf8), format: .webp),
        SniffCase(name: "HEIF heic", bytes: ftyp("heic", ["mif1", "heic"]), format: .heif),
        SniffCase(name: "HEIF heix", bytes: ftyp("heix", []), format: .heif),
        SniffCase(name: "HEIF heim", bytes: ftyp("heim", []), format: .heif),
        SniffCase(name: "HEIF heis", bytes: ftyp("heis", []), format: .heif),
        SniffCase(name: "HEIF hevc", bytes: ftyp("hevc", []), format: .heif),
        SniffCase(name: "HEIF hevx", bytes: ftyp("hevx", []), format: .heif),
        SniffCase(name: "HEIF mif1", bytes: ftyp("mif1", []), format: .heif),
        SniffCase(name: "HEIF msf1", bytes: ftyp("msf1", []), format: .heif),
        SniffCase(name: "HEIF by compatible brand", bytes: ftyp("abcd", ["isom", "mif1"]), format: .heif),
        SniffCase(name: "AVIF", bytes: ftyp("avif", ["mif1", "miaf"]), format: .avif),
        SniffCase(name: "AVIF sequence", bytes: ftyp("avis", ["msf1"]), format: .avif),
        SniffCase(name: "AVIF brand wins over HEIF major", bytes: ftyp("mif1", ["mif1", "avif"]), format: .avif),
        SniffCase(name: "GIF89a", bytes: Array("GIF89a".utf8) + [1, 0, 1, 0], format: .gif),
        SniffCase(name: "GIF87a", bytes: Array("GIF87a".utf8), format: .gif),
        SniffCase(
            name: "BMP", bytes: Array("BM".utf8) + [70, 0, 0, 0, 0, 0, 0, 0, 54, 0, 0, 0, 40, 0, 0, 0], format: .bmp),
        SniffCase(name: "JPEG XL codestream", bytes: [0xFF, 0x0A, 0xFA, 0x7F], format: .jxl),
        SniffCase(
            name: "JPEG XL container",
            bytes: [0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A], format: .jxl),
        SniffCase(
            name: "JPEG 2000",
            bytes: [0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20, 0x0D, 0x0A, 0x87, 0x0A], format: .jp2),
        SniffCase(name: "PSD", bytes: Array("8BPS".utf8) + [0, 1], format: .psd),
        SniffCase(name: "Canon CR3", bytes: ftyp("crx ", ["crx ", "isom"]), format: .cr3),
        SniffCase(name: "Olympus ORF", bytes: Array("IIRO".utf8) + [8, 0, 0, 0], format: .tiff),
        SniffCase(name: "Olympus ORF (SP-350)", bytes: Array("IIRS".utf8) + [8, 0, 0, 0], format: .tiff),
        SniffCase(name: "Olympus ORF big-endian", bytes: Array("MMOR".utf8) + [0, 0, 0, 8], format: .tiff),
        SniffCase(name: "Panasonic RW2", bytes: [0x49, 0x49, 0x55, 0x00, 0x18, 0, 0, 0], format: .tiff),
        SniffCase(name: "Canon CRW", bytes: [0x49, 0x49, 0x1A, 0, 0, 0] + Array("HEAPCCDR".utf8), format: .crw),
        SniffCase(name: "Fujifilm RAF", bytes: Array("FUJIFILMCCD-RAW 0201".utf8), format: .raf),
        SniffCase(name: "Minolta MRW", bytes: [0] + Array("MRM".utf8) + [0, 0, 0, 8], format: .mrw),
        SniffCase(name: "Sigma X3F", bytes: Array("FOVb".utf8) + [0, 0, 2, 0], format: .x3f),
        SniffCase(name: "exiv2 EXV", bytes: [0xFF, 0x01] + Array("Exiv2".utf8) + [0xFF, 0xD9], format: .exv),

        SniffCase(name: "text file", bytes: Array("Hello, photos!\nSecond line\n".utf8), format: nil),
        SniffCase(name: "empty", bytes: [], format: nil),
        SniffCase(name: "JPEG SOI only", bytes: [0xFF, 0xD8], format: nil),
        SniffCase(name: "PNG cut short", bytes: [0x89, 0x50, 0x4E, 0x47], format: nil),
        SniffCase(name: "MP4 video", bytes: ftyp("isom", ["isom", "mp42"]), format: nil),
        SniffCase(name: "Canon CRW cut short", bytes: [0x49, 0x49, 0x1A, 0, 0, 0] + Array("HEAP".utf8), format: nil),
        SniffCase(name: "WAV", bytes: Array("RIFF".utf8) + [36, 0, 0, 0] + Array("WAVEfmt ".utf8), format: nil),
        SniffCase(name: "JP2 signature cut short", bytes: [0, 0, 0, 0x0C, 0x6A, 0x50, 0x20, 0x20], format: nil),
        SniffCase(name: "PDF", bytes: Array("%PDF-1.7\n".utf8), format: nil),
    ]
}

@Suite("Format sniffing")
struct FormatSniffingTests {
    @Test("each minimal header is recognised", arguments: SniffCase.all)
    func sniff(_ sample: SniffCase) {
        #expect(MetadataReader.read(bytes: sample.bytes).format == sample.format)
    }

    @Test("every format in the enum has a sniffing case")
    func everyFormatCovered() {
        let covered = Set(SniffCase.all.compactMap(\.format))
        #expect(covered == Set(ImageFormat.allCases))
    }

    @Test("a bare header gives its format and no metadata")
    func headersAloneHoldNoMetadata() {
        for sample in SniffCase.all where sample.format != nil && sample.format != .jpeg {
            #expect(MetadataReader.read(bytes: sample.bytes) == ImageMetadata(format: sample.format))
        }
    }

    @Test("raw values are the names other modules store")
    func rawValuesAreStable() {
        #expect(ImageFormat.allCases.map(\.rawValue) == [
            "jpeg", "png", "tiff", "bigtiff", "webp", "heif", "avif", "gif", "bmp", "jxl", "jp2", "psd", "cr3", "crw",
            "raf", "mrw", "x3f", "exv",
        ])
    }
}
