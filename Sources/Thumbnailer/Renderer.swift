import CVips
import Glibc
import Posix
import ThumbnailProtocol

/// What rendering one request produced, before it is framed.
struct Rendering {
    var image: [UInt8]
    var cache: [UInt8]
    var width: Int32
    var height: Int32
    var sourceWidth: Int32
    var sourceHeight: Int32
    var usedEmbedded: Bool
}

/// Turns one request and its open file into encoded thumbnails with libvips.
enum Renderer {
    static func render(_ request: ThumbnailRequest, file descriptor: Int32) throws(RenderError) -> Rendering {
        try checkRegularFile(descriptor)
        // The source dup()s the descriptor; the caller still closes its own.
        guard let source = vips_source_new_from_descriptor(descriptor) else { throw RenderError(VipsRuntime.takeError()) }
        defer { g_object_unref(source) }
        let (sourceWidth, sourceHeight, loader) = try inspect(source)
        let isHEIF = loader.contains("Heif")
        let width = Int32(request.width), height = Int32(request.height), fill: Int32 = request.fit == .fill ? 1 : 0
        var thumbnail: VipsImageRef?
        var usedEmbedded = false
        if request.mode == .embedded, isHEIF,
           let embedded = try embeddedImage(source, primaryWidth: sourceWidth, primaryHeight: sourceHeight) {
            thumbnail = try VipsImageRef.make { photod_vips_thumbnail_image(embedded.pointer, $0, width, height, fill) }
            usedEmbedded = true
        }
        let pipeline: VipsImageRef
        if let thumbnail {
            pipeline = thumbnail
        } else if loader.hasPrefix("VipsForeignLoadJpeg"), case let shrink = JPEGShrink.factor(
            sourceWidth: sourceWidth, sourceHeight: sourceHeight, boxWidth: width, boxHeight: height, fill: fill == 1),
            shrink > 1 {
            pipeline = try VipsImageRef.make { photod_vips_thumbnail_jpeg(source, $0, shrink, width, height, fill) }
        } else {
            pipeline = try VipsImageRef.make { photod_vips_thumbnail_source(source, $0, width, height, fill) }
        }
        let decoded = try pipeline.inMemory()
        let image = try encode(decoded, as: request.format, quality: Int32(request.jpegQuality))
        let cache = request.wantsCacheCopy ? try decoded.encode { photod_vips_pngsave_stored($0, $1, $2) } : []
        return Rendering(image: image, cache: cache, width: decoded.width, height: decoded.height,
                         sourceWidth: sourceWidth, sourceHeight: sourceHeight, usedEmbedded: usedEmbedded)
    }

    /// libvips treats what it cannot seek or size as a pipe, and 8.14 asserts (aborts) on an empty one.
    private static func checkRegularFile(_ descriptor: Int32) throws(RenderError) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw RenderError(SystemCallError("fstat", errno: errno).description) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw RenderError("not a regular file") }
        guard status.st_size > 0 else { throw RenderError("empty file") }
    }

    /// The original's size as shown (orientation applied) and the loader libvips picked for it
    /// (e.g. "VipsForeignLoadJpegSource"), from the header alone.
    private static func inspect(_ source: UnsafeMutablePointer<VipsSource>)
        throws(RenderError) -> (Int32, Int32, String) {
        guard let header = photod_vips_header(source) else { throw RenderError(VipsRuntime.takeError()) }
        let image = VipsImageRef(header)
        let loader = vips_foreign_find_load_source(source).map { String(cString: $0) } ?? ""
        // Orientations 5...8 turn the image a quarter: width and height swap.
        let turned = photod_vips_orientation(image.pointer) >= 5
        return (turned ? image.height : image.width, turned ? image.width : image.height, loader)
    }

    /// The HEIF thumbnail item, or nil when the file has none (libheif then gives the primary image back).
    private static func embeddedImage(_ source: UnsafeMutablePointer<VipsSource>, primaryWidth: Int32,
                                      primaryHeight: Int32) throws(RenderError) -> VipsImageRef? {
        let image = try VipsImageRef.make { photod_vips_heifload(source, $0, 1) }
        let smaller = image.width < primaryWidth || image.height < primaryHeight
        return smaller ? image : nil
    }

    private static func encode(_ image: VipsImageRef, as format: ThumbnailFormat,
                               quality: Int32) throws(RenderError) -> [UInt8] {
        switch format {
        case .png:
            return try image.encode { photod_vips_pngsave($0, $1, $2) }
        case .jpeg:
            let opaque = image.hasAlpha ? try VipsImageRef.make { photod_vips_flatten_white(image.pointer, $0) } : image
            return try opaque.encode { photod_vips_jpegsave($0, $1, $2, quality) }
        }
    }
}
