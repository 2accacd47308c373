/// A JPEG the camera or editor already stored inside the file: the EXIF IFD1 thumbnail of a JPEG,
/// or a TIFF-based raw's preview (IFD chain and SubIFDs). Served by `fast` image requests as it
/// is, so it is stored the way the sensor saw it: the asset's EXIF orientation still applies.
public struct EmbeddedPreview: Sendable, Equatable {
    /// The JPEG, from SOI.
    public var bytes: [UInt8]
    public var width: Int
    public var height: Int
}

/// Finds embedded JPEG previews without decoding anything: bounded reads of the TIFF structure,
/// then the preview's own frame header for its size.
public enum EmbeddedPreviewReader {
    /// Larger previews are left to a worker: one request must not pull megabytes into photod.
    public static let maxPreviewBytes = 4 << 20
    /// Directories visited per file (IFD0, IFD1, SubIFDs): raws hold three or four.
    static let maxDirectories = 8

    private static let wanted: Set<UInt16> = [0x0103, 0x0111, 0x0117, 0x014A, 0x0201, 0x0202]

    /// The preview best suited to a box of `side` pixels: the smallest one covering it, else the largest.
    public static func read(fileDescriptor: Int32, fileSize: Int, covering side: Int) -> EmbeddedPreview? {
        var source = FileByteSource(fileDescriptor: fileDescriptor, size: fileSize)
        return read(from: &source, covering: side)
    }

    /// The same over bytes in memory (tests, fuzzing).
    public static func read(bytes: [UInt8], covering side: Int) -> EmbeddedPreview? {
        var source = MemoryByteSource(bytes)
        return read(from: &source, covering: side)
    }

    static func read<Source: ByteSource>(from source: inout Source, covering side: Int) -> EmbeddedPreview? {
        let head = source.bytes(at: 0, count: FormatSniffer.headLength)
        guard let format = FormatSniffer.format(of: head) else { return nil }
        let previews: [EmbeddedPreview]
        switch format {
        case .jpeg:
            guard let (offset, length) = exifBlock(in: &source) else { return nil }
            var block = ByteWindow(source, offset: offset, length: length)
            previews = candidates(in: &block)
        case .tiff:
            previews = candidates(in: &source)
        default:
            return nil
        }
        let covering = previews.filter { max($0.width, $0.height) >= side }
        if let smallest = covering.min(by: { $0.width * $0.height < $1.width * $1.height }) { return smallest }
        return previews.max(by: { $0.width * $0.height < $1.width * $1.height })
    }

    /// Offset and length of the TIFF block inside a JPEG's first EXIF APP1 segment.
    private static func exifBlock<Source: ByteSource>(in source: inout Source) -> (Int, Int)? {
        var position = 2
        for _ in 0..<JPEGScanner.maxSteps {
            let header = source.bytes(at: position, count: 4)
            guard header.byte(at: 0) == 0xFF, let marker = header.byte(at: 1) else { return nil }
            if marker == 0xFF { position += 1; continue }
            if marker == 0xDA || marker == 0xD9 { return nil }
            guard let length = header.uint16BE(at: 2), length >= 2 else { return nil }
            let prefix = TIFFHeader.exifPrefix.count
            if marker == 0xE1, Int(length) - 2 > prefix,
                source.bytes(at: position + 4, count: prefix).matches(TIFFHeader.exifPrefix) {
                return (position + 4 + prefix, Int(length) - 2 - prefix)
            }
            position += 2 + Int(length)
        }
        return nil
    }

    /// Every displayable JPEG the directories of a TIFF block point at.
    private static func candidates<Source: ByteSource>(in block: inout Source) -> [EmbeddedPreview] {
        guard let header = TIFFHeader.parse(block.bytes(at: 0, count: TIFFHeader.length)), !header.isBig else { return [] }
        var queue = [header.firstIFD]
        var visited: Set<Int> = []
        var found: [EmbeddedPreview] = []
        while let offset = queue.first, visited.count < maxDirectories {
            queue.removeFirst()
            guard visited.insert(offset).inserted else { continue }
            let entries = TIFFDirectory.read(&block, header: header, at: offset) { wanted.contains($0) ? 64 : nil }
            func value(_ tag: UInt16) -> Int? {
                entries.first { $0.tag == tag }?.integer(bigEndian: header.bigEndian).flatMap { Int(exactly: $0) }
            }
            if let start = value(0x0201), let length = value(0x0202) {
                found += preview(in: &block, at: start, length: length).map { [$0] } ?? []
            } else if let compression = value(0x0103), compression == 6 || compression == 7,
                let strips = entries.first(where: { $0.tag == 0x0111 }), strips.count == 1,
                let start = value(0x0111), let length = value(0x0117) {
                found += preview(in: &block, at: start, length: length).map { [$0] } ?? []
            }
            if let subIFDs = entries.first(where: { $0.tag == 0x014A }), subIFDs.type == 4 || subIFDs.type == 13 {
                for index in 0..<min(subIFDs.count, maxDirectories) {
                    if let sub = subIFDs.value.uint32(at: index * 4, bigEndian: header.bigEndian) { queue.append(Int(sub)) }
                }
            }
            if let next = nextDirectory(in: &block, header: header, at: offset), next != 0 { queue.append(next) }
        }
        return found
    }

    /// The offset of the directory after the one at `offset` (0 at the end of the chain).
    private static func nextDirectory<Source: ByteSource>(in block: inout Source, header: TIFFHeader, at offset: Int) -> Int? {
        guard let count = block.bytes(at: offset, count: 2).uint16(at: 0, bigEndian: header.bigEndian),
            Int(count) <= TIFFDirectory.maxEntries
        else { return nil }
        let pointer = block.bytes(at: offset + 2 + Int(count) * header.entrySize, count: 4)
        return pointer.uint32(at: 0, bigEndian: header.bigEndian).map(Int.init)
    }

    /// The JPEG at `start`, when it is whole, small enough and one a viewer can show.
    private static func preview<Source: ByteSource>(in block: inout Source, at start: Int, length: Int) -> EmbeddedPreview? {
        guard length > 4, length <= maxPreviewBytes, start >= 8, start <= block.size - length else { return nil }
        let bytes = Array(block.bytes(at: start, count: length))
        guard bytes.count == length, bytes[0] == 0xFF, bytes[1] == 0xD8,
            let frame = JPEGFrame.first(in: bytes), frame.isDisplayable
        else { return nil }
        return EmbeddedPreview(bytes: bytes, width: frame.width, height: frame.height)
    }
}

/// The first frame header (SOFn) of a JPEG held in memory.
struct JPEGFrame: Equatable {
    var marker: UInt8
    var width: Int
    var height: Int

    /// Baseline, extended and progressive DCT: what every viewer decodes. Lossless (SOF3) is how
    /// DNGs store raw sensor data, not a picture.
    var isDisplayable: Bool { marker == 0xC0 || marker == 0xC1 || marker == 0xC2 }

    /// The first SOFn before the scan data, nil when there is none or it is malformed.
    static func first(in bytes: [UInt8]) -> JPEGFrame? {
        var position = 2
        for _ in 0..<JPEGScanner.maxSteps {
            guard position + 4 <= bytes.count, bytes[position] == 0xFF else { return nil }
            let marker = bytes[position + 1]
            if marker == 0xFF { position += 1; continue }
            if marker == 0xDA || marker == 0xD9 { return nil }
            let length = Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            guard length >= 2 else { return nil }
            if marker >= 0xC0, marker <= 0xCF, marker != 0xC4, marker != 0xC8, marker != 0xCC {
                guard position + 9 <= bytes.count else { return nil }
                let height = Int(bytes[position + 5]) << 8 | Int(bytes[position + 6])
                let width = Int(bytes[position + 7]) << 8 | Int(bytes[position + 8])
                guard width > 0, height > 0 else { return nil }
                return JPEGFrame(marker: marker, width: width, height: height)
            }
            position += 2 + length
        }
        return nil
    }
}
