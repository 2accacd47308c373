/// Minolta MRW: a chain of blocks after the "\0MRM" header; `\0TTW` is a TIFF block with IFD0.
enum MRWScanner {
    private static let maxBlocks = 64

    static func scan<Source: ByteSource>(_ source: inout Source) -> ContainerFacts {
        var facts = ContainerFacts()
        guard let dataOffset = source.bytes(at: 4, count: 4).uint32BE(at: 0) else { return facts }
        let end = min(source.size, 8 + Int(dataOffset))
        var position = 8
        var blocks = 0
        while blocks < maxBlocks, position + 8 <= end, let header = source.exactly(8, at: position),
            let type = header.fourCC(at: 0), let length = header.uint32BE(at: 4)
        {
            blocks += 1
            if type == fourCC("\0TTW") {
                var block = ByteWindow(source, offset: position + 8, length: Int(length))
                facts.adoptTIFF(&block)
                return facts
            }
            position += 8 + Int(length)
        }
        return facts
    }
}

/// Fujifilm RAF: the header points at a full JPEG preview, which carries the camera's EXIF.
enum RAFScanner {
    static func scan<Source: ByteSource>(_ source: inout Source) -> ContainerFacts {
        let header = source.bytes(at: 84, count: 8)
        guard let offset = header.uint32BE(at: 0), let length = header.uint32BE(at: 4), offset >= 92 else {
            return ContainerFacts()
        }
        var preview = ByteWindow(source, offset: Int(offset), length: Int(length))
        guard preview.bytes(at: 0, count: 3).matches([0xFF, 0xD8, 0xFF]) else { return ContainerFacts() }
        var facts = JPEGScanner.scan(&preview)
        // The preview's frame size is not the raw image's.
        facts.width = nil
        facts.height = nil
        return facts
    }
}
