/// A range of another source seen as a whole file: an EXIF block inside a PNG chunk, a HEIF item,
/// a raw's embedded JPEG. Offsets count from the range's start and no read leaves the range.
struct ByteWindow<Base: ByteSource>: ByteSource {
    private var base: Base
    private let start: Int
    let size: Int

    /// A window of `length` bytes at `offset`, clipped to the base source's end.
    init(_ base: Base, offset: Int, length: Int) {
        self.base = base
        start = max(0, min(offset, base.size))
        size = max(0, min(length, base.size - start))
    }

    var budget: ReadBudget { base.budget }

    /// Reads the base directly: `bytes(at:count:)` charged the window's budget, which is the base's.
    mutating func read(at offset: Int, count: Int) -> ArraySlice<UInt8> {
        base.read(at: start + offset, count: count)
    }
}

extension ByteSource {
    /// Exactly `count` bytes at `offset`, or nil when the file ends first.
    mutating func exactly(_ count: Int, at offset: Int) -> ArraySlice<UInt8>? {
        guard count >= 0 else { return nil }
        let bytes = bytes(at: offset, count: count)
        return bytes.count == count ? bytes : nil
    }
}

extension ArraySlice<UInt8> {
    /// 16-bit value counted from the slice's start, in the given byte order.
    func uint16(at index: Int, bigEndian: Bool) -> UInt16? {
        guard let value = uint16BE(at: index) else { return nil }
        return bigEndian ? value : value.byteSwapped
    }

    /// 32-bit value counted from the slice's start, in the given byte order.
    func uint32(at index: Int, bigEndian: Bool) -> UInt32? {
        guard let value = uint32BE(at: index) else { return nil }
        return bigEndian ? value : value.byteSwapped
    }

    /// 64-bit value counted from the slice's start, in the given byte order.
    func uint64(at index: Int, bigEndian: Bool) -> UInt64? {
        guard let high = uint32BE(at: index), let low = uint32BE(at: index + 4) else { return nil }
        let value = UInt64(high) << 32 | UInt64(low)
        return bigEndian ? value : value.byteSwapped
    }

    /// Big-endian 64-bit value counted from the slice's start (ISO-BMFF large sizes).
    func uint64BE(at index: Int) -> UInt64? {
        uint64(at: index, bigEndian: true)
    }

    /// Little-endian 32-bit value counted from the slice's start (RIFF sizes).
    func uint32LE(at index: Int) -> UInt32? {
        uint32(at: index, bigEndian: false)
    }

    /// The four bytes at a position as a big-endian code (box and chunk types).
    func fourCC(at index: Int) -> UInt32? {
        uint32BE(at: index)
    }
}

/// A four-character code as the integer the big-endian bytes spell.
func fourCC(_ text: StaticString) -> UInt32 {
    var value: UInt32 = 0
    text.withUTF8Buffer { buffer in
        for byte in buffer.prefix(4) { value = value << 8 | UInt32(byte) }
    }
    return value
}
