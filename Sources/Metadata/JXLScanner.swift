/// Reads the `Exif` and `xml ` boxes of a JPEG XL container (a bare codestream has no metadata).
///
/// Boxes compressed with Brotli (`brob`) are left alone: their metadata is not reachable without a decoder.
enum JXLScanner {
    private static let packetLimit = 4 * 1024 * 1024

    static func scan<Source: ByteSource>(_ source: inout Source) -> ContainerFacts {
        var facts = ContainerFacts()
        for box in ISOBox.children(&source, from: 0, to: source.size) {
            if box.type == fourCC("Exif"), facts.exifPayload == nil {
                // Like HEIF: a 4-byte offset from the end of that field to the TIFF header.
                guard let declared = source.bytes(at: box.payloadStart, count: 4).uint32BE(at: 0),
                    UInt64(declared) + 4 < UInt64(box.payloadLength)
                else { continue }
                let start = box.payloadStart + 4 + Int(declared)
                var block = ByteWindow(source, offset: start, length: box.end - start)
                facts.adoptTIFF(&block)
            } else if box.type == fourCC("xml "), facts.xmpPacket == nil, box.payloadLength <= packetLimit {
                facts.xmpPacket = source.bytes(at: box.payloadStart, count: box.payloadLength)
            }
        }
        return facts
    }
}
