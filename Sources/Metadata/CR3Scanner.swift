/// Canon CR3 (ISO-BMFF): IFD0 in `moov/uuid(Canon)/CMT1`, the Exif IFD in `CMT2`, XMP in a top-level `uuid` box.
enum CR3Scanner {
    private static let canonBox: [UInt8] = [
        0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B, 0x6A, 0x48,
    ]
    private static let xmpBox: [UInt8] = [
        0xBE, 0x7A, 0xCF, 0xCB, 0x97, 0xA9, 0x42, 0xE8, 0x9C, 0x71, 0x99, 0x94, 0x91, 0xE3, 0xAF, 0xAC,
    ]
    private static let packetLimit = 4 * 1024 * 1024

    static func scan<Source: ByteSource>(_ source: inout Source) -> ContainerFacts {
        var facts = ContainerFacts()
        let top = ISOBox.children(&source, from: 0, to: source.size)
        if let moov = top.first("moov"),
            let canon = moov.children(&source).first(where: { $0.userType?.elementsEqual(canonBox) == true })
        {
            let parts = canon.children(&source)
            if let cmt1 = parts.first("CMT1") {
                var ifd0 = ByteWindow(source, offset: cmt1.payloadStart, length: cmt1.payloadLength)
                if let cmt2 = parts.first("CMT2") {
                    var exif = ByteWindow(source, offset: cmt2.payloadStart, length: cmt2.payloadLength)
                    facts.adopt(TIFFBlock.readSplit(ifd0: &ifd0, exif: &exif))
                } else {
                    facts.adoptTIFF(&ifd0)
                }
            }
        }
        if let xmp = top.first(where: { $0.userType?.elementsEqual(xmpBox) == true }), xmp.payloadLength <= packetLimit {
            facts.xmpPacket = source.bytes(at: xmp.payloadStart, count: xmp.payloadLength)
        }
        return facts
    }
}
