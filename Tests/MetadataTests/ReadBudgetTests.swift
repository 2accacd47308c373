import Foundation
@testable import Metadata
import PhotoTestSupport
import Testing

/// No length a file claims makes the reader allocate it: the per-read and per-file caps of
/// `ReadBudget`, and the caps of the readers that trusted a length checked only against the
/// file's size (which a sparse file makes anything). Costs are asserted on what a counting
/// source was asked for, never on time.
@Suite("Read budget: bounded memory whatever a file claims")
struct ReadBudgetTests {
    private static let gigabytes = 3_460_000_000

    /// The CRW of photod issue 11, item 4: 161 stored bytes, a trailer whose XMP block claims
    /// 3.46 GB, almost all of it a hole.
    static func sparseCRW() -> [UInt8] {
        let tail = Array("<x:xmpmeta/>".utf8)
        let hole = SparseFuzzFile.holeMarker + FuzzContainers.be32(gigabytes)
        let block = FuzzContainers.be32(0xFFFF_00F6) + FuzzContainers.be32(gigabytes + tail.count) + hole + tail
        return FuzzContainers.crw(trailerBlocks: block)
    }

    @Test("a CRW trailer claiming 3.46 GB of a sparse file costs a few reads of its footer")
    func sparseCRWTrailer() {
        var file = SparseFuzzFile(Self.sparseCRW())
        #expect(file.size > Self.gigabytes)
        let metadata = MetadataReader.read(from: &file)
        #expect(metadata == ImageMetadata(format: .crw))
        #expect(file.reads.largest <= 1024, "largest read: \(file.reads.largest) bytes")
        #expect(file.reads.total <= 4096, "bytes read: \(file.reads.total)")
    }

    @Test("the same CRW as a real sparse file on disk, through a file descriptor")
    func sparseCRWOnDisk() throws {
        let stored = Self.sparseCRW()
        let file = SparseFuzzFile(stored)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sparse-\(UUID().uuidString).crw")
        defer { try? FileManager.default.removeItem(at: url) }
        let descriptor = open(url.path, O_RDWR | O_CREAT | O_EXCL, 0o600)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        // The header, then the trailer at the end of a 3.46 GB file that stores 8 KB.
        let marker = try #require(stored.firstRange(of: SparseFuzzFile.holeMarker, from: 0))
        let head = Array(stored[..<marker.lowerBound]), tail = Array(stored[(marker.upperBound + 4)...])
        try #require(ftruncate(descriptor, off_t(file.size)) == 0)
        try #require(pwrite(descriptor, head, head.count, 0) == head.count)
        try #require(pwrite(descriptor, tail, tail.count, off_t(file.size - tail.count)) == tail.count)
        #expect(MetadataReader.read(fileDescriptor: descriptor, fileSize: file.size) == ImageMetadata(format: .crw))
    }

    @Test("a CRW's XMP block over 4 MiB is not read, though the file really holds it")
    func trailerPacketCap() {
        let packet = XMPFixture(description: "too far").packet()
        let padded = packet + [UInt8](repeating: 0x20, count: 5 * 1024 * 1024 - packet.count)
        let block = FuzzContainers.be32(0xFFFF_00F6) + FuzzContainers.be32(padded.count) + padded
        var file = SparseFuzzFile(FuzzContainers.crw(trailerBlocks: block))
        #expect(MetadataReader.read(from: &file).descriptions.xmp == nil)
        #expect(file.reads.largest < 4 * 1024 * 1024, "largest read: \(file.reads.largest) bytes")
    }

    @Test("one read over the cap gets nothing; reads past the file's budget get nothing")
    func centralCaps() {
        let size = ReadBudget.maxReadLength + 1
        var source = MemoryByteSource([UInt8](repeating: 7, count: size))
        #expect(source.bytes(at: 0, count: size).isEmpty)
        #expect(source.budget.spent == 0)
        #expect(source.bytes(at: 1, count: size).count == ReadBudget.maxReadLength)
        let reads = ReadBudget.maxBytesPerFile / ReadBudget.maxReadLength - 1
        for _ in 0..<reads {
            #expect(source.bytes(at: 0, count: ReadBudget.maxReadLength).count == ReadBudget.maxReadLength)
        }
        #expect(source.budget.remaining == 0)
        #expect(source.bytes(at: 0, count: 1).isEmpty)
        #expect(source.exactly(1, at: 0) == nil)
    }

    @Test("a window onto a file spends the file's budget, once per read")
    func windowsShareTheBudget() {
        var file = MemoryByteSource([UInt8](repeating: 1, count: 1000))
        var window = ByteWindow(file, offset: 100, length: 500)
        var inner = ByteWindow(window, offset: 100, length: 100)
        #expect(inner.bytes(at: 0, count: 1000).count == 100)
        #expect(window.bytes(at: 450, count: 100).count == 50)
        #expect(file.bytes(at: 0, count: 10).count == 10)
        #expect(file.budget.spent == 160)
    }

    @Test("an IFD repeating one packet tag a thousand times reads the packet once")
    func repeatedTIFFTags() {
        let entries = 1000, packetLength = 64 * 1024
        let packetOffset = 8 + 2 + 12 * entries + 4
        func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func le32(_ value: Int) -> [UInt8] { le16(value & 0xFFFF) + le16(value >> 16) }
        var bytes: [UInt8] = [0x49, 0x49, 0x2A, 0x00] + le32(8) + le16(entries)
        for _ in 0..<entries { bytes += le16(0x02BC) + le16(1) + le32(packetLength) + le32(packetOffset) }
        bytes += le32(0) + XMPFixture(description: "once").packet()
        bytes += [UInt8](repeating: 0x20, count: packetOffset + packetLength - bytes.count)
        var file = SparseFuzzFile(bytes)
        #expect(MetadataReader.read(from: &file).descriptions.xmp == Array("once".utf8))
        #expect(file.reads.total < 2 * bytes.count, "read \(file.reads.total) bytes of a \(bytes.count)-byte file")
    }

    @Test("an iloc table of extents that take no bytes stops at the extent cap")
    func zeroByteExtents() {
        // iloc version 0, all field sizes 0: each item is an id, a data reference index and a
        // count of 4096 extents that occupy nothing.
        let items = 20
        var payload: [UInt8] = [0, 0, 0, 0, 0x00, 0x00] + FuzzContainers.be16(items)
        for id in 1...items { payload += FuzzContainers.be16(id) + [0, 0] + FuzzContainers.be16(4096) }
        let iloc = FuzzContainers.be32(8 + payload.count) + Array("iloc".utf8) + payload
        var source = MemoryByteSource(iloc)
        let box = ISOBox(type: fourCC("iloc"), start: 0, payloadStart: 8, end: iloc.count, userType: nil)
        let located = HEIFItems.read(&source, metaChildren: [box]).locations.values.reduce(0) { $0 + $1.count }
        #expect(located == HEIFItems.maxLocatedExtents)
    }

    @Test("PNG text chunks of a kind already found are neither read nor inflated")
    func pngTextReadOnce() {
        let xmp = XMPFixture(description: "first").packet()
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            FuzzContainers.be32(data.count) + Array(type.utf8) + data + [0, 0, 0, 0]  // the reader ignores CRCs
        }
        let keyword = Array("XML:com.adobe.xmp".utf8)
        var bytes = PNGFixture.signature + chunk("iTXt", keyword + [0, 0, 0, 0, 0] + xmp)
        let compressed = FuzzContainers.zlibStored([UInt8](repeating: 0x20, count: 32 * 1024))
        for _ in 0..<40 { bytes += chunk("iTXt", keyword + [0, 1, 0, 0, 0] + compressed) }
        bytes += chunk("IEND", [])
        var source = MemoryByteSource(bytes)
        let facts = PNGScanner.scan(&source)
        #expect(facts.xmpPacket.map(Array.init) == xmp)
        #expect(source.budget.spent < 64 * 1024, "spent \(source.budget.spent) bytes")
    }
}
