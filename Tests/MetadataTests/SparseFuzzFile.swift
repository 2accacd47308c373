// Shared by the `metadata` and `metadata-payload` fuzz targets (built by fuzz/run with
// -D PHOTOD_FUZZ into one module with Sources/Metadata) and the metadata tests: a file that
// counts every read reaching it, and may claim gigabytes it does not store, as a sparse file does.
#if !PHOTOD_FUZZ
@testable import Metadata
#endif

/// A file described by a fuzz input: the input's bytes, except that each hole marker
/// (`holeMarker` followed by a 4-byte big-endian length) stands for that many zero bytes that are
/// not stored, like a sparse file's hole. `truncate -s 4G` and a few writes make such a file on
/// any disk, and its size then says nothing about what its lengths may claim.
///
/// Every read that reaches the file is counted, so a check can see what a walk asked for.
struct SparseFuzzFile: ByteSource {
    /// "\0photod-hole\0": never in a real image, and in the fuzz dictionary.
    static let holeMarker: [UInt8] = [0] + Array("photod-hole".utf8) + [0]
    static let maxHoles = 16
    /// Reads above this are counted but not served (answered with nothing), so a reader without
    /// caps is reported by the checks instead of taking the fuzzer down with it.
    static let servedLimit = 64 * 1024 * 1024

    /// What reached the file; shared by every window onto it.
    final class Reads {
        var count = 0
        var largest = 0
        var total = 0
    }

    let size: Int
    let budget = ReadBudget()
    let reads = Reads()
    /// Whether the input held at least one hole marker.
    let hasHoles: Bool
    private let pieces: [(offset: Int, bytes: ArraySlice<UInt8>)]

    init(_ input: [UInt8]) {
        var pieces: [(offset: Int, bytes: ArraySlice<UInt8>)] = []
        var position = 0
        var offset = 0
        while pieces.count < Self.maxHoles, let marker = input.firstRange(of: Self.holeMarker, from: position),
            let length = input[marker.upperBound...].uint32BE(at: 0)
        {
            pieces.append((offset, input[position..<marker.lowerBound]))
            offset += marker.lowerBound - position + Int(length)
            position = marker.upperBound + 4
        }
        hasHoles = !pieces.isEmpty
        pieces.append((offset, input[position...]))
        self.pieces = pieces
        size = offset + input.count - position
    }

    /// The size of the file `input` describes.
    static func expandedSize(of input: [UInt8]) -> Int {
        SparseFuzzFile(input).size
    }

    mutating func read(at offset: Int, count: Int) -> ArraySlice<UInt8> {
        reads.count += 1
        reads.largest = max(reads.largest, count)
        reads.total += count
        guard count <= Self.servedLimit else { return [] }
        var bytes = [UInt8](repeating: 0, count: count)
        for piece in pieces {
            let start = max(offset, piece.offset)
            let end = min(offset + count, piece.offset + piece.bytes.count)
            guard start < end else { continue }
            let from = piece.bytes.startIndex + start - piece.offset
            bytes.replaceSubrange((start - offset)..<(end - offset), with: piece.bytes[from..<(from + end - start)])
        }
        return bytes[...]
    }
}

/// What reading one file may cost, whatever it claims: the fuzz invariant that would have caught
/// the Canon trailer that made photod allocate 3.46 GB for an 8 KB sparse CRW.
enum ReadCostFuzz {
    /// A dense file's walk reads at most this many times its size, plus `readSlack`: each value is
    /// read once, and headers are a few dozen bytes per box or chunk of at least 8.
    static let readAmplification = 64
    static let readSlack = 1024 * 1024

    /// Violated read-cost invariants for `bytes` read as the (sparse) file they describe.
    static func violations(in bytes: [UInt8]) -> [String] {
        var file = SparseFuzzFile(bytes)
        let metadata = MetadataReader.read(from: &file)
        var problems: [String] = []
        if file.reads.largest > ReadBudget.maxReadLength {
            problems.append("a read of \(file.reads.largest) bytes, over the \(ReadBudget.maxReadLength)-byte cap")
        }
        if file.reads.total > ReadBudget.maxBytesPerFile {
            problems.append("\(file.reads.total) bytes read from one file, over the \(ReadBudget.maxBytesPerFile)-byte budget")
        }
        if !file.hasHoles {
            if file.reads.total > readAmplification * bytes.count + readSlack {
                problems.append("\(file.reads.total) bytes read from a \(bytes.count)-byte file")
            }
            let fromMemory = MetadataReader.read(bytes: bytes)
            if metadata != fromMemory {
                problems.append("counted read differs from memory reader: \(metadata) vs \(fromMemory)")
            }
        }
        MetadataFuzz.check(metadata, problems: &problems)
        return problems
    }
}
