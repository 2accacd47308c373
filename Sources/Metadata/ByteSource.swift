/// Random access to one file's bytes, so every container walker reads disk and memory the same way.
protocol ByteSource {
    /// Bytes in the file; no read goes past it.
    var size: Int { get }
    /// Up to `count` bytes at `offset`: fewer at the end of the file or after a read error, never an error.
    mutating func bytes(at offset: Int, count: Int) -> ArraySlice<UInt8>
}

/// Bytes already in memory (tests, fuzzing): every read is a slice, nothing is copied.
struct MemoryByteSource: ByteSource {
    private let storage: [UInt8]

    init(_ bytes: [UInt8]) {
        storage = bytes
    }

    var size: Int { storage.count }

    func bytes(at offset: Int, count: Int) -> ArraySlice<UInt8> {
        guard offset >= 0, count > 0, offset < storage.count else { return [] }
        return storage[offset..<(offset + min(count, storage.count - offset))]
    }
}

extension ArraySlice<UInt8> {
    /// Byte at a position counted from the slice's start, nil past its end.
    func byte(at index: Int) -> UInt8? {
        guard index >= 0, index < count else { return nil }
        return self[startIndex + index]
    }

    /// Big-endian 16-bit value counted from the slice's start (JPEG and ISO-BMFF are big-endian).
    func uint16BE(at index: Int) -> UInt16? {
        guard index >= 0, index + 2 <= count else { return nil }
        let base = startIndex + index
        return UInt16(self[base]) << 8 | UInt16(self[base + 1])
    }

    /// Big-endian 32-bit value counted from the slice's start.
    func uint32BE(at index: Int) -> UInt32? {
        guard let high = uint16BE(at: index), let low = uint16BE(at: index + 2) else { return nil }
        return UInt32(high) << 16 | UInt32(low)
    }

    /// Whether `pattern` appears at a position counted from the slice's start.
    func matches(_ pattern: [UInt8], at index: Int = 0) -> Bool {
        guard index >= 0, index + pattern.count <= count else { return false }
        let base = startIndex + index
        for (offset, byte) in pattern.enumerated() where self[base + offset] != byte {
            return false
        }
        return true
    }
}
