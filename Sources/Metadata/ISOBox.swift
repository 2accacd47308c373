/// One ISO base media file format box (HEIF, AVIF, CR3, JPEG XL): where it starts, ends and its payload begins.
struct ISOBox {
    var type: UInt32
    var start: Int
    /// Where the payload begins: after size, type, any 64-bit size and any uuid user type.
    var payloadStart: Int
    var end: Int
    /// The 16-byte extended type of a `uuid` box.
    var userType: ArraySlice<UInt8>?

    var payloadLength: Int { end - payloadStart }

    /// Real files nest a few dozen boxes per level; the cap bounds a crafted one.
    static let maxChildren = 4096

    /// The boxes laid end to end in [from, to). A box claiming more than the range is cut to it;
    /// one whose size is smaller than its own header ends the list.
    static func children<Source: ByteSource>(_ source: inout Source, from: Int, to: Int) -> [ISOBox] {
        var boxes: [ISOBox] = []
        var position = from
        let end = min(to, source.size)
        while boxes.count < maxChildren, position + 8 <= end {
            let header = source.bytes(at: position, count: 32)
            guard let size32 = header.uint32BE(at: 0), let type = header.fourCC(at: 4) else { break }
            var headerLength = 8
            var boxEnd: Int
            switch size32 {
            case 0:
                boxEnd = end  // to the end of the enclosing range
            case 1:
                guard let size64 = header.uint64BE(at: 8) else { return boxes }
                headerLength = 16
                boxEnd = size64 > UInt64(end - position) ? end : position + Int(size64)
            default:
                boxEnd = position + Int(size32)
            }
            var userType: ArraySlice<UInt8>?
            if type == fourCC("uuid") {
                userType = header.dropFirst(headerLength).prefix(16)
                headerLength += 16
            }
            guard boxEnd >= position + headerLength else { break }
            boxEnd = min(boxEnd, end)
            boxes.append(ISOBox(type: type, start: position, payloadStart: position + headerLength, end: boxEnd, userType: userType))
            position = boxEnd
        }
        return boxes
    }

    /// The children of this box, skipping `skip` payload bytes first (4 for a FullBox's version and flags).
    func children<Source: ByteSource>(_ source: inout Source, skip: Int = 0) -> [ISOBox] {
        ISOBox.children(&source, from: payloadStart + skip, to: end)
    }
}

extension Array<ISOBox> {
    /// The first box of a type.
    func first(_ type: StaticString) -> ISOBox? {
        let code = fourCC(type)
        return first { $0.type == code }
    }
}
