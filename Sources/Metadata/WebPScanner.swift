/// Walks the RIFF chunks of a WebP file for `EXIF` and `XMP ` and the canvas size.
enum WebPScanner {
    /// An extended WebP has a handful of chunks (animations: one per frame).
    static let maxChunks = 10_000
    private static let packetLimit = 4 * 1024 * 1024

    static func scan<Source: ByteSource>(_ source: inout Source) -> ContainerFacts {
        var facts = ContainerFacts()
        // The RIFF size bounds the chunks, but a truncated file ends sooner.
        let riffSize = source.bytes(at: 4, count: 4).uint32LE(at: 0).map { Int($0) + 8 } ?? source.size
        let end = min(source.size, riffSize)
        var position = 12
        var chunks = 0
        while chunks < maxChunks, position + 8 <= end, let header = source.exactly(8, at: position),
            let type = header.fourCC(at: 0), let length = header.uint32LE(at: 4)
        {
            chunks += 1
            let dataStart = position + 8
            let dataLength = Int(length)
            switch type {
            case fourCC("VP8X"):
                // 24-bit canvas width and height, each stored minus one.
                let data = source.bytes(at: dataStart + 4, count: 6)
                if data.count == 6 {
                    facts.width = 1 + (Int(data[data.startIndex]) | Int(data[data.startIndex + 1]) << 8 | Int(data[data.startIndex + 2]) << 16)
                    facts.height = 1 + (Int(data[data.startIndex + 3]) | Int(data[data.startIndex + 4]) << 8 | Int(data[data.startIndex + 5]) << 16)
                }
            case fourCC("EXIF") where facts.exifPayload == nil:
                // Some writers keep the JPEG "Exif\0\0" prefix; the specification has the TIFF block alone.
                let prefix = TIFFHeader.exifPrefix
                let skip = source.bytes(at: dataStart, count: prefix.count).matches(prefix) ? prefix.count : 0
                var window = ByteWindow(source, offset: dataStart + skip, length: dataLength - skip)
                facts.adoptTIFF(&window)
            case fourCC("XMP ") where facts.xmpPacket == nil && dataLength <= packetLimit:
                facts.xmpPacket = source.bytes(at: dataStart, count: dataLength)
            default:
                break
            }
            // Chunks are padded to an even size.
            position = dataStart + dataLength + (dataLength & 1)
        }
        return facts
    }
}
