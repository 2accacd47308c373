/// The "CANON OPTIONAL DATA" trailer that Canon's Digital Photo Professional and ExifTool append
/// to Canon raws: recipe blocks, one of which (0xFFFF00F6) is an XMP packet. It is how a CRW
/// carries XMP, since the CIFF container itself has no place for it.
enum CanonVRDTrailer {
    private static let signature = Array("CANON OPTIONAL DATA".utf8) + [0]
    private static let headerLength = 0x1C
    private static let footerLength = 0x40
    private static let xmpBlock: UInt32 = 0xFFFF_00F6
    private static let maxBlocks = 64
    /// A recipe's XMP is a few KB; like every other container's packet, more is not read.
    private static let packetLimit = 4 * 1024 * 1024

    /// The XMP packet in the trailer at the end of the file, if there is one.
    static func xmpPacket<Source: ByteSource>(_ source: inout Source) -> ArraySlice<UInt8>? {
        // The footer repeats the signature and gives the length of the blocks before it.
        let footerStart = source.size - footerLength
        guard footerStart > 0, let footer = source.exactly(footerLength, at: footerStart), footer.matches(signature),
            let blocksLength = footer.uint32BE(at: signature.count), Int(blocksLength) < footerStart
        else { return nil }
        let headerStart = footerStart - Int(blocksLength) - headerLength
        guard headerStart >= 0, source.bytes(at: headerStart, count: signature.count).matches(signature) else { return nil }
        var position = headerStart + headerLength
        let end = footerStart
        var blocks = 0
        while blocks < maxBlocks, position + 8 <= end, let header = source.exactly(8, at: position),
            let type = header.uint32BE(at: 0), let length = header.uint32BE(at: 4), Int(length) <= end - position - 8
        {
            blocks += 1
            if type == xmpBlock {
                // The lengths were only checked against the file's size, which a sparse file makes anything.
                guard Int(length) <= packetLimit else { return nil }
                return source.bytes(at: position + 8, count: Int(length))
            }
            position += 8 + Int(length)
        }
        return nil
    }
}

/// Canon CRW (CIFF): its EXIF-like records are not TIFF, but an appended recipe trailer may hold XMP.
enum CRWScanner {
    static func scan<Source: ByteSource>(_ source: inout Source) -> ContainerFacts {
        var facts = ContainerFacts()
        facts.xmpPacket = CanonVRDTrailer.xmpPacket(&source)
        return facts
    }
}
