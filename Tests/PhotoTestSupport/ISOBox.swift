/// ISO base media file format boxes (HEIF, AVIF, JPEG XL container, CR3): size, type, payload.
enum ISOBox {
    /// How a box header states its size; only the last box of a file may use `.toEnd`.
    enum Size {
        case exact, largeSize, toEnd
    }

    static func box(_ type: String, _ payload: [UInt8], size: Size = .exact) -> [UInt8] {
        precondition(type.utf8.count == 4, "box types are four-character codes")
        switch size {
        case .exact:
            return ByteEncoding.be32(8 + payload.count) + ByteEncoding.ascii(type) + payload
        case .largeSize:
            // size 1 announces a 64-bit size after the type, counted from the box's first byte.
            return ByteEncoding.be32(1) + ByteEncoding.ascii(type) + ByteEncoding.be64(UInt64(16 + payload.count))
                + payload
        case .toEnd:
            return ByteEncoding.be32(0) + ByteEncoding.ascii(type) + payload
        }
    }

    /// A box whose payload starts with a version byte and 24 bits of flags.
    static func fullBox(_ type: String, version: UInt8 = 0, flags: Int = 0, _ payload: [UInt8]) -> [UInt8] {
        box(type, [version, UInt8(flags >> 16 & 0xFF), UInt8(flags >> 8 & 0xFF), UInt8(flags & 0xFF)] + payload)
    }

    /// How many bytes `box` adds in front of a payload for a given size form.
    static func headerLength(_ size: Size) -> Int {
        size == .largeSize ? 16 : 8
    }

    /// An `ftyp` box: major brand, minor version, compatible brands.
    static func fileType(major: String, minor: Int = 0, compatible: [String]) -> [UInt8] {
        box("ftyp", ByteEncoding.ascii(major) + ByteEncoding.be32(minor) + compatible.flatMap(ByteEncoding.ascii))
    }
}
