/// What a container walk found: the EXIF block for libexif, the XMP packet, the IPTC records and
/// the pixel size the container itself declares.
struct ContainerFacts {
    /// An APP1-style payload: "Exif\0\0" followed by the TIFF-structured block, as libexif expects it.
    var exifPayload: ArraySlice<UInt8>?
    /// The XMP packet (RDF/XML text).
    var xmpPacket: ArraySlice<UInt8>?
    /// IPTC IIM records (the body of Photoshop resource 0x0404 or of a TIFF IPTC-NAA tag).
    var iptc: ArraySlice<UInt8>?
    /// Photoshop image resources ("8BIM" blocks), searched for IPTC when `iptc` is not set directly.
    var photoshop: ArraySlice<UInt8>?
    var width: Int?
    var height: Int?

    /// Takes over what a TIFF-structured block held, keeping what the container already said.
    mutating func adopt(_ block: TIFFBlock.Contents, includingSize: Bool = false) {
        if exifPayload == nil { exifPayload = block.exifPayload.map { $0[...] } }
        if xmpPacket == nil { xmpPacket = block.xmpPacket }
        if iptc == nil { iptc = block.iptc }
        if photoshop == nil { photoshop = block.photoshop }
        if includingSize, width == nil, let width = block.width, let height = block.height {
            self.width = width
            self.height = height
        }
    }

    /// Reads the TIFF block in `window` and takes it over.
    mutating func adoptTIFF<Source: ByteSource>(_ window: inout Source) {
        adopt(TIFFBlock.read(&window))
    }

    /// Locates the metadata for one container format; the single place where a new container plugs in.
    static func locate<Source: ByteSource>(_ format: ImageFormat, in source: inout Source) -> ContainerFacts {
        switch format {
        case .jpeg: JPEGScanner.scan(&source)
        case .exv: JPEGScanner.scan(&source, from: 7)
        case .tiff, .bigtiff: TIFFFile.scan(&source)
        case .png: PNGScanner.scan(&source)
        case .webp: WebPScanner.scan(&source)
        case .heif, .avif: HEIFScanner.scan(&source)
        case .jxl: JXLScanner.scan(&source)
        case .cr3: CR3Scanner.scan(&source)
        case .psd: PSDScanner.scan(&source)
        case .mrw: MRWScanner.scan(&source)
        case .raf: RAFScanner.scan(&source)
        case .crw: CRWScanner.scan(&source)
        case .gif, .bmp, .jp2, .x3f: ContainerFacts()
        }
    }
}

/// A TIFF or TIFF-based raw file: the file is the EXIF block.
enum TIFFFile {
    static func scan<Source: ByteSource>(_ source: inout Source) -> ContainerFacts {
        var facts = ContainerFacts()
        facts.adopt(TIFFBlock.read(&source), includingSize: true)
        return facts
    }
}
