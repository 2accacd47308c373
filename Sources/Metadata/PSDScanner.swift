/// Photoshop PSD/PSB: the image resources section holds EXIF (0x0422), IPTC (0x0404) and XMP (0x0424).
enum PSDScanner {
    private static let resourcesLimit = 8 * 1024 * 1024

    static func scan<Source: ByteSource>(_ source: inout Source) -> ContainerFacts {
        var facts = ContainerFacts()
        let header = source.bytes(at: 0, count: 30)
        if let height = header.uint32BE(at: 14), let width = header.uint32BE(at: 18), width > 0, height > 0,
            width <= UInt32(Int32.max), height <= UInt32(Int32.max)
        {
            facts.width = Int(width)
            facts.height = Int(height)
        }
        // After the 26-byte header: the colour mode data (length-prefixed), then the resources (length-prefixed).
        guard let modeLength = header.uint32BE(at: 26) else { return facts }
        let resourcesAt = 30 + Int(modeLength)
        guard let length = source.bytes(at: resourcesAt, count: 4).uint32BE(at: 0), Int(length) <= resourcesLimit else {
            return facts
        }
        let resources = source.bytes(at: resourcesAt + 4, count: Int(length))
        if let exif = PhotoshopResources.find(PhotoshopResources.exifID, in: resources) {
            var block = MemoryByteSource(Array(exif), budget: source.budget)
            facts.adoptTIFF(&block)
        }
        facts.xmpPacket = PhotoshopResources.find(PhotoshopResources.xmpID, in: resources)
        facts.photoshop = resources
        return facts
    }
}
