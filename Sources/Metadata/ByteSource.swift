/// Random access to one file's bytes, so every container walker reads disk and memory the same way.
///
/// Readers call `bytes(at:count:)`, never `read(at:count:)`: it clips the range to the file and
/// charges the file's `ReadBudget`, so no length a file claims can make a reader allocate more
/// than the budget allows, whichever reader forgets its own cap.
protocol ByteSource {
    /// Bytes in the file; no read goes past it.
    var size: Int { get }
    /// What this file's reads may still cost; every window onto the file shares it.
    var budget: ReadBudget { get }
    /// Exactly the bytes of a range that `bytes(at:count:)` has clipped and paid for
    /// (`0 <= offset`, `0 < count <= size - offset`); fewer only after a read error.
    mutating func read(at offset: Int, count: Int) -> ArraySlice<UInt8>
}

extension ByteSource {
    /// Up to `count` bytes at `offset`: fewer at the end of the file or after a read error, and
    /// none when the read would break the budget. Never an error: a reader stops with what it has.
    mutating func bytes(at offset: Int, count: Int) -> ArraySlice<UInt8> {
        guard offset >= 0, count > 0, offset < size else { return [] }
        let wanted = min(count, size - offset)
        guard budget.spend(wanted) else { return [] }
        return read(at: offset, count: wanted)
    }
}

/// How many bytes one file's metadata walk may read (and inflate), in one read and in all.
///
/// Lengths come from the file, and a sparse file claims gigabytes while costing nothing on disk,
/// so the checks a reader makes against the file's size bound nothing. These caps do: a crafted
/// file gets "no metadata" from a refused read, never an allocation of what it claims.
final class ReadBudget {
    /// The largest single read: an XMP sidecar or a PSD resource section (8 MiB) is the largest
    /// thing a reader asks for in one piece; packets are capped at 4 MiB by their readers.
    static let maxReadLength = 8 * 1024 * 1024
    /// Bytes read (and inflated) per file in all: a few maximal packets, or the 256 segments
    /// of 64 KiB a JPEG walk may read. A real photo's metadata costs well under 1 MiB.
    static let maxBytesPerFile = 64 * 1024 * 1024

    /// Bytes taken so far.
    private(set) var spent = 0

    /// What is left of the per-file total.
    var remaining: Int { Self.maxBytesPerFile - spent }

    /// Takes `count` bytes; false, taking nothing, when that one read or the new total would be over its cap.
    func spend(_ count: Int) -> Bool {
        guard count >= 0, count <= Self.maxReadLength, count <= remaining else { return false }
        spent += count
        return true
    }
}

/// Bytes already in memory (tests, fuzzing, a block gathered from several pieces): every read is
/// a slice, nothing is copied.
struct MemoryByteSource: ByteSource {
    private let storage: [UInt8]
    let budget: ReadBudget

    /// `budget`: the file's own when the bytes came out of it, so reading them again is charged to it.
    init(_ bytes: [UInt8], budget: ReadBudget = ReadBudget()) {
        storage = bytes
        self.budget = budget
    }

    var size: Int { storage.count }

    func read(at offset: Int, count: Int) -> ArraySlice<UInt8> {
        storage[offset..<(offset + count)]
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
