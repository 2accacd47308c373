/// Finds the `Exif` and XMP (`mime`, application/rdf+xml) items of a HEIF, HEIC or AVIF file
/// through `meta` → `iinf`/`iloc`, wherever in the file their bytes are, and the image size (`ispe`).
enum HEIFScanner {
    private static let packetLimit = 4 * 1024 * 1024
    private static let xmpContentType = Array("application/rdf+xml".utf8)

    static func scan<Source: ByteSource>(_ source: inout Source) -> ContainerFacts {
        var facts = ContainerFacts()
        let top = ISOBox.children(&source, from: 0, to: source.size)
        guard let meta = top.first("meta") else { return facts }
        let children = meta.children(&source, skip: 4)
        let items = HEIFItems.read(&source, metaChildren: children)
        // One Exif item is tried: another thousand items naming the same unreadable bytes would
        // each gather and read them again.
        var triedExif = false
        for info in items.infos {
            guard let extents = items.locations[info.id], !extents.isEmpty else { continue }
            if info.type == fourCC("Exif"), !triedExif {
                triedExif = true
                exif(&source, extents: extents, into: &facts)
            } else if info.type == fourCC("mime"), info.contentType == xmpContentType, facts.xmpPacket == nil {
                facts.xmpPacket = gather(&source, extents: extents)
            }
        }
        if let size = largestImageSize(&source, metaChildren: children) {
            facts.width = size.width
            facts.height = size.height
        }
        return facts
    }

    /// The Exif item starts with the offset of the TIFF header from the end of that 4-byte field.
    private static func exif<Source: ByteSource>(_ source: inout Source, extents: [HEIFItems.Extent], into facts: inout ContainerFacts) {
        if extents.count == 1, let extent = extents.first {
            var item = ByteWindow(source, offset: extent.offset, length: extent.length)
            guard let start = tiffStart(&item) else { return }
            var block = ByteWindow(item, offset: start, length: item.size - start)
            facts.adoptTIFF(&block)
        } else if let bytes = gather(&source, extents: extents) {
            var item = MemoryByteSource(Array(bytes), budget: source.budget)
            guard let start = tiffStart(&item) else { return }
            var block = ByteWindow(item, offset: start, length: item.size - start)
            facts.adoptTIFF(&block)
        }
    }

    /// Where the TIFF header is in an Exif item: at the declared offset, or (for writers that got
    /// the offset wrong) just after an "Exif\0\0" at the item's start.
    private static func tiffStart<Source: ByteSource>(_ item: inout Source) -> Int? {
        guard let declared = item.bytes(at: 0, count: 4).uint32BE(at: 0) else { return nil }
        let candidates = [4 + Int(declared), 10, 4]
        for start in candidates where start < item.size {
            if TIFFHeader.parse(item.bytes(at: start, count: TIFFHeader.length)) != nil { return start }
        }
        return nil
    }

    /// An item's extents joined, when the whole item is at most `packetLimit` bytes.
    private static func gather<Source: ByteSource>(_ source: inout Source, extents: [HEIFItems.Extent]) -> ArraySlice<UInt8>? {
        var total = 0
        for extent in extents {
            total += extent.length
            if total > packetLimit { return nil }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(total)
        for extent in extents {
            let piece = source.bytes(at: extent.offset, count: extent.length)
            bytes += piece
            if piece.count < extent.length { break }  // the file ends early
        }
        return bytes[...]
    }

    /// The largest `ispe` (image spatial extents) property: the full image, not a thumbnail or a grid tile.
    private static func largestImageSize<Source: ByteSource>(_ source: inout Source, metaChildren: [ISOBox]) -> (width: Int, height: Int)? {
        guard let iprp = metaChildren.first("iprp"), let ipco = iprp.children(&source).first("ipco") else { return nil }
        var best: (width: Int, height: Int)?
        for property in ipco.children(&source) where property.type == fourCC("ispe") {
            let body = source.bytes(at: property.payloadStart, count: 12)
            guard let width = body.uint32BE(at: 4), let height = body.uint32BE(at: 8), width > 0, height > 0,
                width <= UInt32(Int32.max), height <= UInt32(Int32.max)
            else { continue }
            if best.map({ $0.width * $0.height < Int(width) * Int(height) }) ?? true {
                best = (Int(width), Int(height))
            }
        }
        return best
    }
}
