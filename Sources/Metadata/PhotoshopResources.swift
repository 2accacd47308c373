/// Photoshop image resource blocks ("8BIM", id, Pascal name, size, data), as JPEG APP13, TIFF tag
/// 34377 and PSD files carry them.
enum PhotoshopResources {
    /// IPTC-NAA records.
    static let iptcID: UInt16 = 0x0404
    /// EXIF data 1: a TIFF-structured EXIF block.
    static let exifID: UInt16 = 0x0422
    /// XMP metadata.
    static let xmpID: UInt16 = 0x0424
    /// IPTCDigest: the MD5 of the IPTC-NAA block, by which Photoshop notices edits made elsewhere.
    static let iptcDigestID: UInt16 = 0x0425

    private static let signatures: [[UInt8]] = [Array("8BIM".utf8), Array("PHUT".utf8), Array("AgHg".utf8), Array("DCSR".utf8)]
    /// A real resource section holds a few dozen blocks.
    private static let maxBlocks = 1024

    /// Offset and length (within `resources`) of the first block with `id`.
    static func find(_ id: UInt16, in resources: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        var position = 0
        var steps = 0
        while steps < maxBlocks, position + 12 <= resources.count {
            steps += 1
            let block = resources.dropFirst(position)
            guard signatures.contains(where: { block.matches($0) }), let blockID = block.uint16BE(at: 4),
                let nameLength = block.byte(at: 6)
            else { return nil }
            // The Pascal name, its length byte included, is padded to an even size.
            let nameField = (Int(nameLength) + 2) & ~1
            guard let size = block.uint32BE(at: 6 + nameField) else { return nil }
            let dataStart = 6 + nameField + 4
            guard UInt64(size) <= UInt64(block.count - min(dataStart, block.count)) else { return nil }
            if blockID == id {
                return block.dropFirst(dataStart).prefix(Int(size))
            }
            position += dataStart + (Int(size) + 1) & ~1
        }
        return nil
    }
}
