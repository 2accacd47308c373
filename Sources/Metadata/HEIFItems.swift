/// The item tables of a HEIF `meta` box: item types (`iinf`) and where each item's bytes are (`iloc`).
struct HEIFItems {
    /// One piece of an item: a byte range in the file.
    struct Extent {
        var offset: Int
        var length: Int
    }

    /// An item's declared type and, for `mime` items, its content type.
    struct Info {
        var id: UInt32
        var type: UInt32
        var contentType: [UInt8]?
    }

    var infos: [Info] = []
    var locations: [UInt32: [Extent]] = [:]

    /// Tables this large are not a still image's; a bound for crafted counts.
    private static let tableLimit = 1024 * 1024
    private static let maxItems = 65_536
    private static let maxExtents = 4096
    /// Extents in the whole table: with zero-byte offset and length fields an extent takes no
    /// table bytes at all, so the table's size alone would allow 65,536 × 4096 of them (4 GiB).
    static let maxLocatedExtents = 65_536

    /// Reads `iinf` and `iloc` from the children of `meta`.
    static func read<Source: ByteSource>(_ source: inout Source, metaChildren: [ISOBox]) -> HEIFItems {
        var items = HEIFItems()
        if let iinf = metaChildren.first("iinf") {
            items.infos = readInfos(&source, iinf: iinf)
        }
        if let iloc = metaChildren.first("iloc"), iloc.payloadLength <= tableLimit {
            let idat = metaChildren.first("idat")
            items.locations = readLocations(source.bytes(at: iloc.payloadStart, count: iloc.payloadLength), idat: idat, fileSize: source.size)
        }
        return items
    }

    private static func readInfos<Source: ByteSource>(_ source: inout Source, iinf: ISOBox) -> [Info] {
        let head = source.bytes(at: iinf.payloadStart, count: 8)
        guard let version = head.byte(at: 0) else { return [] }
        let countSize = version == 0 ? 2 : 4
        var infos: [Info] = []
        for infe in ISOBox.children(&source, from: iinf.payloadStart + 4 + countSize, to: iinf.end)
        where infe.type == fourCC("infe") {
            let body = source.bytes(at: infe.payloadStart, count: min(infe.payloadLength, 1024))
            guard let infeVersion = body.byte(at: 0), infeVersion >= 2 else { continue }
            let idSize = infeVersion == 2 ? 2 : 4
            let id: UInt32? = idSize == 2 ? body.uint16BE(at: 4).map(UInt32.init) : body.uint32BE(at: 4)
            guard let id, let type = body.fourCC(at: 4 + idSize + 2) else { continue }
            var info = Info(id: id, type: type)
            if type == fourCC("mime") {
                // item_name, then content_type, both NUL-terminated.
                let strings = body.dropFirst(4 + idSize + 6).split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
                if strings.count >= 2 { info.contentType = Array(strings[1]) }
            }
            infos.append(info)
        }
        return infos
    }

    /// Parses `iloc` versions 0, 1 and 2; construction method 0 (file offsets) and 1 (inside `idat`).
    private static func readLocations(_ table: ArraySlice<UInt8>, idat: ISOBox?, fileSize: Int) -> [UInt32: [Extent]] {
        var reader = BigEndianReader(table)
        // FullBox version and flags, then the field sizes in nibbles.
        guard let version = reader.read(1), version <= 2, reader.skip(3), let sizes = reader.read(1),
            let moreSizes = reader.read(1)
        else { return [:] }
        let offsetSize = Int(sizes >> 4), lengthSize = Int(sizes & 0xF)
        let baseOffsetSize = Int(moreSizes >> 4), indexSize = version >= 1 ? Int(moreSizes & 0xF) : 0
        guard [0, 4, 8].contains(offsetSize), [0, 4, 8].contains(lengthSize), [0, 4, 8].contains(baseOffsetSize),
            [0, 4, 8].contains(indexSize), let count = reader.read(version < 2 ? 2 : 4)
        else { return [:] }
        var locations: [UInt32: [Extent]] = [:]
        var located = 0
        for _ in 0..<min(Int(count), maxItems) {
            guard let id = reader.read(version < 2 ? 2 : 4) else { break }
            var method: UInt64 = 0
            if version >= 1 {
                guard let field = reader.read(2) else { break }
                method = field & 0xF
            }
            guard reader.skip(2), let baseOffset = reader.read(baseOffsetSize), let extentCount = reader.read(2) else { break }
            var extents: [Extent] = []
            for _ in 0..<min(Int(extentCount), maxExtents) {
                guard located < maxLocatedExtents else { return locations }
                located += 1
                guard reader.skip(indexSize), let offset = reader.read(offsetSize), let length = reader.read(lengthSize)
                else { return locations }
                let (start, overflow) = baseOffset.addingReportingOverflow(offset)
                guard !overflow, start < UInt64(Int.max / 2), length < UInt64(Int.max / 2) else { continue }
                extents.append(Extent(offset: Int(start), length: Int(length)))
            }
            switch method {
            case 0:
                locations[UInt32(truncatingIfNeeded: id)] = extents.map {
                    // Length 0: to the end of the file.
                    Extent(offset: $0.offset, length: $0.length == 0 ? max(0, fileSize - $0.offset) : $0.length)
                }
            case 1:
                guard let idat else { continue }
                locations[UInt32(truncatingIfNeeded: id)] = extents.compactMap {
                    guard $0.offset <= idat.payloadLength else { return nil }
                    let available = idat.payloadLength - $0.offset
                    return Extent(offset: idat.payloadStart + $0.offset, length: $0.length == 0 ? available : min($0.length, available))
                }
            default:
                continue  // item references (method 2) never carry metadata in practice
            }
        }
        return locations
    }
}

/// Reads big-endian integers of 0 to 8 bytes in sequence from a slice.
struct BigEndianReader {
    private let bytes: ArraySlice<UInt8>
    private var position = 0

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
    }

    /// The next `size`-byte value (0 for size 0), nil past the end.
    mutating func read(_ size: Int) -> UInt64? {
        guard size >= 0, size <= 8, position + size <= bytes.count else { return nil }
        var value: UInt64 = 0
        for index in 0..<size { value = value << 8 | UInt64(bytes[bytes.startIndex + position + index]) }
        position += size
        return value
    }

    /// Skips `count` bytes; false past the end.
    mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, position + count <= bytes.count else { return false }
        position += count
        return true
    }
}
