/// IPTC IIM records holding a Caption-Abstract (2:120), and the Photoshop wrapper JPEG APP13 puts around them.
public struct IPTCFixture: Sendable {
    /// The caption's bytes exactly as stored in dataset 2:120, in whatever character set the test chose.
    public var caption: [UInt8]
    /// Adds 1:90 CodedCharacterSet = ESC % G, which declares the caption UTF-8.
    public var declaresUTF8: Bool
    /// Writes 2:120 with the extended-length form (high bit set, then a 4-byte length), legal for any size.
    public var extendedLength: Bool
    /// An ObjectName (2:05) written before the caption, so a reader must pick datasets by number.
    public var objectName: [UInt8]?

    /// Creates a fixture; a caption without `declaresUTF8` is read as Latin-1 by ExifTool and by us.
    public init(
        caption: [UInt8], declaresUTF8: Bool = false, extendedLength: Bool = false,
        objectName: [UInt8]? = Array("Object name".utf8)
    ) {
        self.caption = caption
        self.declaresUTF8 = declaresUTF8
        self.extendedLength = extendedLength
        self.objectName = objectName
    }

    /// The IIM datasets: 1:90 when declared, 2:00 record version, 2:05 when set, then 2:120.
    public func iim() -> [UInt8] {
        var bytes: [UInt8] = []
        if declaresUTF8 {
            bytes += Self.dataset(record: 1, number: 90, [0x1B, 0x25, 0x47])
        }
        bytes += Self.dataset(record: 2, number: 0, [0x00, 0x04])
        if let objectName {
            bytes += Self.dataset(record: 2, number: 5, objectName)
        }
        bytes += Self.dataset(record: 2, number: 120, caption, extendedLength: extendedLength)
        return bytes
    }

    /// One dataset: tag marker 0x1C, record, dataset number, length, data.
    public static func dataset(record: UInt8, number: UInt8, _ data: [UInt8], extendedLength: Bool = false)
        -> [UInt8]
    {
        if extendedLength || data.count > 0x7FFF {
            // 0x8004: the high bit says "extended", the low 15 bits say how many length bytes follow.
            return [0x1C, record, number, 0x80, 0x04] + ByteEncoding.be32(data.count) + data
        }
        return [0x1C, record, number] + ByteEncoding.be16(data.count) + data
    }

    /// A Photoshop image resource block: "8BIM", the id, an empty Pascal name padded to even, size, data, pad.
    public static func imageResource(id: Int, _ data: [UInt8]) -> [UInt8] {
        var bytes = ByteEncoding.ascii("8BIM") + ByteEncoding.be16(id) + [0, 0] + ByteEncoding.be32(data.count) + data
        if data.count % 2 == 1 { bytes.append(0) }
        return bytes
    }

    /// A JPEG APP13 payload: "Photoshop 3.0\0" then the IIM bytes as image resource 0x0404.
    public static func photoshopAPP13Payload(iim: [UInt8]) -> [UInt8] {
        ByteEncoding.ascii("Photoshop 3.0") + [0] + imageResource(id: 0x0404, iim)
    }
}
