import PhotoTestSupport

enum JPEGBytes {
    /// A marker segment with a correct length field.
    static func segment(_ marker: UInt8, payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    /// The same JPEG with extra segments right after SOI.
    static func inserting(_ segments: [[UInt8]], into jpeg: [UInt8]) -> [UInt8] {
        [0xFF, 0xD8] + segments.flatMap { $0 } + jpeg[2...]
    }

    /// Offset just past the first APP1 segment of a fixture (SOI, then APP1).
    static func endOfFirstAPP1(_ jpeg: [UInt8]) -> Int {
        4 + (Int(jpeg[4]) << 8 | Int(jpeg[5]))
    }

    /// SOI plus the EXIF APP1 and EOI: a JPEG without a frame header.
    static func withoutFrame(_ exif: ExifFixture) -> [UInt8] {
        let full = JPEGFixture.make(exif: exif)
        return Array(full[..<endOfFirstAPP1(full)]) + [0xFF, 0xD9]
    }
}

enum TIFFBytes {
    /// Rewrites the type (and, when given, the 4-byte value field) of an IFD0 entry in a fixture's TIFF block.
    static func patchingIFD0Entry(
        _ block: [UInt8], tag: UInt16, type: UInt16, value: [UInt8]? = nil, byteOrder: TIFFByteOrder
    ) -> [UInt8] {
        func read16(_ at: Int) -> Int {
            let (first, second) = (Int(block[at]), Int(block[at + 1]))
            return byteOrder == .littleEndian ? first | second << 8 : first << 8 | second
        }
        func encode16(_ v: UInt16) -> [UInt8] {
            byteOrder == .littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)]
        }
        var patched = block
        for index in 0..<read16(8) {
            let entry = 10 + 12 * index
            guard read16(entry) == Int(tag) else { continue }
            patched.replaceSubrange((entry + 2)..<(entry + 4), with: encode16(type))
            if let value {
                patched.replaceSubrange((entry + 8)..<(entry + 12), with: value)
            }
        }
        return patched
    }

    /// A JPEG (SOI, APP1, baseline body) around a hand-made TIFF block.
    static func jpeg(around block: [UInt8]) -> [UInt8] {
        let app1 = JPEGBytes.segment(0xE1, payload: Array("Exif".utf8) + [0, 0] + block)
        return JPEGBytes.inserting([app1], into: JPEGFixture.make(exif: nil))
    }
}
