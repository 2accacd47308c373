/// Reads an image file's metadata: format from magic bytes, EXIF facts through libexif, XMP and IPTC
/// descriptions, and the size from the container.
public enum MetadataReader {
    /// Reads an open regular file with bounded pread calls; never reads the whole file. A reader
    /// going through many files passes the same `buffer` for each (`HeadBuffer`).
    public static func read(fileDescriptor: Int32, fileSize: Int, reusing buffer: HeadBuffer? = nil) -> ImageMetadata {
        var source = FileByteSource(fileDescriptor: fileDescriptor, size: fileSize, reusing: buffer)
        defer { source.returnHead() }
        return read(from: &source)
    }

    /// The same logic over bytes in memory (tests, fuzzing).
    public static func read(bytes: [UInt8]) -> ImageMetadata {
        var source = MemoryByteSource(bytes)
        return read(from: &source)
    }

    static func read<Source: ByteSource>(from source: inout Source) -> ImageMetadata {
        let head = source.bytes(at: 0, count: FormatSniffer.headLength)
        guard let format = FormatSniffer.format(of: head) else { return ImageMetadata() }
        var metadata = ImageMetadata(format: format)

        let container = ContainerFacts.locate(format, in: &source)
        let exif = container.exifPayload.map(LibExif.facts(fromPayload:)) ?? ExifFacts()

        metadata.descriptions.exif = exif.description
        metadata.descriptions.xmp = container.xmpPacket.flatMap(XMPPacket.description(in:))
        // Photoshop's resource (JPEG APP13, TIFF tag 34377) first, then a bare IPTC-NAA block
        // (TIFF tag 33723, even inside a JPEG's EXIF); an empty caption gives way to a real one.
        let captions = [
            container.photoshop.flatMap { PhotoshopResources.find(PhotoshopResources.iptcID, in: $0) },
            container.iptc,
        ].compactMap { $0.flatMap(IPTCRecords.caption(in:)) }
        metadata.descriptions.iptc = captions.first { !$0.isEmpty } ?? captions.first
        metadata.taken = ExifDate.iso8601(dateTime: exif.dateTimeOriginal, offset: exif.offsetTimeOriginal)
        metadata.orientation = exif.validOrientation
        metadata.make = ExifFacts.trimmedName(exif.make)
        metadata.model = ExifFacts.trimmedName(exif.model)
        if let width = container.width, let height = container.height {
            metadata.width = width
            metadata.height = height
        } else if let size = exif.pixelSize {
            metadata.width = size.width
            metadata.height = size.height
        }
        return metadata
    }
}
