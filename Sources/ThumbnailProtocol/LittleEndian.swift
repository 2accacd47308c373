// Little-endian field coding shared by requests and responses; the wire is LE on every host.

/// Appends little-endian fields to a byte array.
struct LittleEndianWriter {
    var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    mutating func u8(_ value: UInt8) { bytes.append(value) }
    mutating func u32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func u64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func append(_ data: [UInt8]) { bytes.append(contentsOf: data) }
}

/// Reads little-endian fields in order; callers check the length first, so reads never overrun.
struct LittleEndianReader {
    private let bytes: ArraySlice<UInt8>
    private var index: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        index = bytes.startIndex
    }

    mutating func u8() -> UInt8 {
        defer { index += 1 }
        return bytes[index]
    }

    mutating func u32() -> UInt32 { UInt32(truncatingIfNeeded: integer(width: 4)) }
    mutating func u64() -> UInt64 { integer(width: 8) }

    /// The next `count` bytes as a new array.
    mutating func take(_ count: Int) -> [UInt8] {
        defer { index += count }
        return Array(bytes[index..<index + count])
    }

    private mutating func integer(width: Int) -> UInt64 {
        var value: UInt64 = 0
        for offset in 0..<width { value |= UInt64(bytes[index + offset]) << (8 * offset) }
        index += width
        return value
    }
}
