// Shared by the `metadata` and `metadata-payload` fuzz targets (fuzz/*.swift, built by fuzz/run
// with -D PHOTOD_FUZZ into one module with Sources/Metadata) and FuzzRegressionTests, so a saved
// fuzz input is checked by exactly the invariants that flagged it. Standard library, libc and
// the Metadata module (its internals too, for the read-cost checks in SparseFuzzFile.swift):
// no Testing, no test fixtures.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if !PHOTOD_FUZZ
@testable import Metadata
#endif

/// An unlinked temporary file that each input is written to, so the file reader (pread through
/// FileByteSource) can be compared with the memory reader on the same bytes.
final class FuzzScratchFile {
    let descriptor: Int32

    init?() {
        let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array("\(directory)/photod-fuzz-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { return nil }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Replaces the file's contents; false when the write failed (then the comparison is skipped).
    func replaceContents(with bytes: [UInt8]) -> Bool {
        guard ftruncate(descriptor, 0) == 0 else { return false }
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                pwrite(descriptor, buffer.baseAddress! + written, bytes.count - written, off_t(written))
            }
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { return false }
            written += result
        }
        return true
    }
}

/// The invariants of `MetadataReader.read` on any bytes: every one must hold for every input.
enum MetadataFuzz {
    /// Violated invariants for one file's bytes; [] when all hold. `scratch` enables the file-reader comparison.
    static func violations(in bytes: [UInt8], scratch: FuzzScratchFile?) -> [String] {
        var problems: [String] = []
        let metadata = MetadataReader.read(bytes: bytes)
        let again = MetadataReader.read(bytes: bytes)
        if again != metadata {
            problems.append("reading the same bytes twice differs: \(metadata) then \(again)")
        }
        if let scratch, scratch.replaceContents(with: bytes) {
            let fromFile = MetadataReader.read(fileDescriptor: scratch.descriptor, fileSize: bytes.count)
            if fromFile != metadata {
                problems.append("file reader differs from memory reader: \(fromFile) vs \(metadata)")
            }
        }
        check(metadata, problems: &problems)
        problems += ReadCostFuzz.violations(in: bytes)
        return problems
    }

    /// What every result promises, whatever the input.
    static func check(_ metadata: ImageMetadata, problems: inout [String]) {
        if metadata.format == nil, metadata != ImageMetadata() {
            problems.append("unrecognised bytes still report facts: \(metadata)")
        }
        switch (metadata.width, metadata.height) {
        case (nil, nil):
            break
        case (let width?, let height?):
            if width <= 0 || height <= 0 { problems.append("size \(width)x\(height) is not positive") }
        default:
            problems.append("only one of width and height: \(String(describing: metadata.width)) x \(String(describing: metadata.height))")
        }
        if let orientation = metadata.orientation, !(1...8).contains(orientation) {
            problems.append("orientation \(orientation) outside 1...8")
        }
        if let taken = metadata.taken, !isISO8601(Array(taken.utf8)) {
            problems.append("taken \"\(taken)\" is not YYYY-MM-DDTHH:MM:SS[+HH:MM]")
        }
        for (name, value) in [("make", metadata.make), ("model", metadata.model)] {
            guard let value else { continue }
            if value.isEmpty { problems.append("\(name) is empty instead of nil") }
            if value.last == 0x20 { problems.append("\(name) keeps trailing spaces") }
            if value.contains(0) { problems.append("\(name) contains a NUL") }
        }
        if let exif = metadata.descriptions.exif, exif.contains(0) {
            problems.append("EXIF description contains a NUL")
        }
    }

    /// "YYYY-MM-DDTHH:MM:SS", optionally followed by "+HH:MM" or "-HH:MM".
    static func isISO8601(_ text: [UInt8]) -> Bool {
        func digits(_ range: Range<Int>) -> Bool { text[range].allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
        guard text.count == 19 || text.count == 25 else { return false }
        let shape = digits(0..<4) && text[4] == 0x2D && digits(5..<7) && text[7] == 0x2D && digits(8..<10)
            && text[10] == 0x54 && digits(11..<13) && text[13] == 0x3A && digits(14..<16) && text[16] == 0x3A
            && digits(17..<19)
        guard shape else { return false }
        return text.count == 19
            || ((text[19] == 0x2B || text[19] == 0x2D) && digits(20..<22) && text[22] == 0x3A && digits(23..<25))
    }
}

/// The `metadata-payload` target: the first input byte picks a container, the rest is the metadata
/// payload put into it with every length, checksum and offset right, so the fuzzer spends its time
/// on the EXIF/TIFF, XMP, IPTC and Photoshop parsers instead of on container framing.
enum MetadataPayloadFuzz {
    /// Saved inputs name their container by position: only ever append cases (fuzz/make-seeds.py
    /// lists the same order).
    enum Container: UInt8, CaseIterable {
        case jpegExif, jpegXMP, jpegPhotoshop, jpegIPTC
        case pngExif, pngXMP, pngCompressedXMP, pngRawProfileExif, pngRawProfileIPTC
        case webpExif, webpXMP
        case tiffXMP, tiffIPTC, tiffPhotoshop
        case heifExif, heifXMP
        case jxlExif, jxlXMP
        /// CMT1 alone; CMT1 and CMT2 split where the payload's first two bytes say; the XMP `uuid` box.
        case cr3IFD0, cr3Split, cr3XMP
        /// The image resources section ("8BIM" blocks: EXIF 0x0422, IPTC 0x0404, XMP 0x0424).
        case psdResources
        /// No container: `XMPPacket.description(in:)` on the payload itself.
        case xmpPacket
        /// Canon CRW: the payload is the recipe blocks (type, length, data) of its trailer; hole
        /// markers in it (see `SparseFuzzFile`) count in the trailer's length.
        case crwTrailer

        /// The format the container's magic bytes must be recognised as; nil when not checked.
        var format: ImageFormat? {
            switch self {
            case .jpegExif, .jpegXMP, .jpegPhotoshop, .jpegIPTC: .jpeg
            case .pngExif, .pngXMP, .pngCompressedXMP, .pngRawProfileExif, .pngRawProfileIPTC: .png
            case .webpExif, .webpXMP: .webp
            case .tiffXMP, .tiffIPTC, .tiffPhotoshop: .tiff
            case .heifExif, .heifXMP: .heif
            case .jxlExif, .jxlXMP: .jxl
            case .cr3IFD0, .cr3Split, .cr3XMP: .cr3
            case .psdResources: .psd
            case .xmpPacket: nil
            case .crwTrailer: .crw
            }
        }

        /// The packet the reader must find when this container carries the payload as XMP.
        func xmpPacket(from payload: [UInt8]) -> [UInt8]? {
            switch self {
            case .jpegXMP: Array(payload.prefix(FuzzContainers.jpegXMPRoom))
            case .pngXMP, .pngCompressedXMP, .webpXMP, .tiffXMP, .heifXMP, .jxlXMP, .cr3XMP: payload
            default: nil
            }
        }
    }

    /// The container the first byte picks (modulo the number of containers) and the payload after it.
    static func split(_ input: [UInt8]) -> (container: Container, payload: [UInt8])? {
        guard let first = input.first else { return nil }
        let container = Container(rawValue: first % UInt8(Container.allCases.count))!
        return (container, Array(input.dropFirst()))
    }

    static func violations(in input: [UInt8], scratch: FuzzScratchFile?) -> [String] {
        guard let (container, payload) = split(input) else { return [] }
        if container == .xmpPacket {
            let description = XMPPacket.description(in: payload)
            var problems: [String] = []
            if XMPPacket.description(in: payload) != description {
                problems.append("XMPPacket.description differs between two calls")
            }
            // Entities only shrink; UTF-16 → UTF-8 grows at most 3 bytes per 2, and an ill-formed
            // byte becomes the 3-byte U+FFFD.
            if let description, description.count > payload.count * 3 {
                problems.append("XMP description of \(description.count) bytes from a \(payload.count)-byte packet")
            }
            if let description, String(validating: description, as: UTF8.self) == nil {
                problems.append("XMP description is not valid UTF-8")
            }
            return problems
        }
        let image = FuzzContainers.wrap(payload, in: container)
        var problems = MetadataFuzz.violations(in: image, scratch: scratch)
        let metadata = MetadataReader.read(bytes: image)
        if let expected = container.format, metadata.format != expected {
            problems.append("\(container) wrapper read as \(metadata.format.map { "\($0)" } ?? "nil"), expected \(expected)")
        }
        // Whatever the container, the XMP description is the one the packet itself gives.
        if let packet = container.xmpPacket(from: payload) {
            let direct = XMPPacket.description(in: packet)
            if metadata.descriptions.xmp != direct {
                problems.append(
                    "\(container): XMP description \(String(describing: metadata.descriptions.xmp)), packet alone gives \(String(describing: direct))")
            }
        }
        return problems
    }
}

/// Builders for minimal but well-formed containers around one payload.
enum FuzzContainers {
    static func wrap(_ payload: [UInt8], in container: MetadataPayloadFuzz.Container) -> [UInt8] {
        switch container {
        case .jpegExif:
            return jpeg([segment(0xE1, ascii("Exif") + [0, 0] + payload.prefix(65533 - 6))])
        case .jpegXMP:
            return jpeg([segment(0xE1, jpegXMPHeader + payload.prefix(jpegXMPRoom))])
        case .jpegPhotoshop:
            return jpeg(photoshopSegments(payload))
        case .jpegIPTC:
            return jpeg(photoshopSegments(photoshopResource(0x0404, payload)))
        case .pngExif:
            return png(chunk("eXIf", payload))
        case .pngXMP:
            return png(chunk("iTXt", ascii("XML:com.adobe.xmp") + [0, 0, 0, 0, 0] + payload))
        case .pngCompressedXMP:
            return png(chunk("iTXt", ascii("XML:com.adobe.xmp") + [0, 1, 0, 0, 0] + zlibStored(payload)))
        case .pngRawProfileExif:
            return png(chunk("zTXt", ascii("Raw profile type exif") + [0, 0] + zlibStored(rawProfile("exif", payload))))
        case .pngRawProfileIPTC:
            return png(chunk("tEXt", ascii("Raw profile type iptc") + [0] + rawProfile("iptc", payload)))
        case .webpExif:
            return webp(flags: 0x08, riffChunk("EXIF", payload))
        case .webpXMP:
            return webp(flags: 0x04, riffChunk("XMP ", payload))
        case .tiffXMP:
            return tiff(tag: 0x02BC, type: 1, payload)
        case .tiffIPTC:
            return tiff(tag: 0x83BB, type: 7, payload)
        case .tiffPhotoshop:
            return tiff(tag: 0x8649, type: 7, payload)
        case .heifExif:
            return heif(itemType: "Exif", contentType: nil, data: [0, 0, 0, 0] + payload)
        case .heifXMP:
            return heif(itemType: "mime", contentType: "application/rdf+xml", data: payload)
        case .jxlExif:
            return jxl(box("Exif", [0, 0, 0, 0] + payload))
        case .jxlXMP:
            return jxl(box("xml ", payload))
        case .cr3IFD0:
            return cr3(box("CMT1", payload))
        case .cr3Split:
            let rest = Array(payload.dropFirst(2))
            let cut = payload.count >= 2 ? (Int(payload[0]) << 8 | Int(payload[1])) % (rest.count + 1) : 0
            return cr3(box("CMT1", Array(rest[..<cut])) + box("CMT2", Array(rest[cut...])))
        case .cr3XMP:
            let xmp: [UInt8] = [
                0xBE, 0x7A, 0xCF, 0xCB, 0x97, 0xA9, 0x42, 0xE8, 0x9C, 0x71, 0x99, 0x94, 0x91, 0xE3, 0xAF, 0xAC,
            ]
            return cr3([]) + box("uuid", xmp + payload)
        case .psdResources:
            // Header: signature, version 1, reserved, 3 channels, height 1, width 1, depth 8, RGB.
            let header = ascii("8BPS") + be16(1) + [0, 0, 0, 0, 0, 0] + be16(3) + be32(1) + be32(1) + be16(8) + be16(3)
            return header + be32(0) + be32(payload.count) + payload + be32(0) + be32(0)
        case .xmpPacket:
            return payload
        case .crwTrailer:
            return crw(trailerBlocks: payload)
        }
    }

    static func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }

    static func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }

    static func be32(_ value: Int) -> [UInt8] { be16(value >> 16) + be16(value) }

    static func le32(_ value: Int) -> [UInt8] { be32(value).reversed() }

    // MARK: JPEG

    static let jpegXMPHeader = ascii("http://ns.adobe.com/xap/1.0/") + [0]
    /// The most packet bytes one APP1 segment holds after the XMP namespace header.
    static let jpegXMPRoom = 65533 - jpegXMPHeader.count

    /// SOI, the given segments, a baseline SOF0 for 8x8, EOI.
    static func jpeg(_ segments: [[UInt8]]) -> [UInt8] {
        let frame: [UInt8] = [0x08, 0x00, 0x08, 0x00, 0x08, 0x03, 0x01, 0x11, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01]
        return [0xFF, 0xD8] + segments.joined() + segment(0xC0, frame) + [0xFF, 0xD9]
    }

    static func segment(_ marker: UInt8, _ payload: some Collection<UInt8>) -> [UInt8] {
        [0xFF, marker] + be16(payload.count + 2) + payload
    }

    /// Photoshop resources over as many APP13 segments as they need, as Photoshop splits them.
    static func photoshopSegments(_ resources: [UInt8]) -> [[UInt8]] {
        let header = ascii("Photoshop 3.0") + [0]
        let room = 65533 - header.count
        var segments: [[UInt8]] = []
        var start = 0
        repeat {
            let end = min(resources.count, start + room)
            segments.append(segment(0xED, header + resources[start..<end]))
            start = end
        } while start < resources.count
        return segments
    }

    /// One "8BIM" image resource block with an empty name.
    static func photoshopResource(_ id: Int, _ data: [UInt8]) -> [UInt8] {
        ascii("8BIM") + be16(id) + [0, 0] + be32(data.count) + data + (data.count % 2 == 1 ? [0] : [])
    }

    // MARK: PNG

    static func png(_ chunks: [UInt8]...) -> [UInt8] {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let header = chunk("IHDR", be32(1) + be32(1) + [8, 2, 0, 0, 0])
        return signature + header + chunks.joined() + chunk("IEND", [])
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = ascii(type) + data
        return be32(data.count) + typed + be32(Int(crc32(typed)))
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return ~crc
    }

    /// A zlib stream of stored (uncompressed) deflate blocks: valid input for inflate, no compressor needed.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let end = min(data.count, start + 65535)
            let length = end - start
            out.append(end == data.count ? 1 : 0)
            out += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
            out += data[start..<end]
            start = end
        } while start < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return out + be32(Int(b << 16 | a))
    }

    /// ImageMagick's "Raw profile type" text: "\n<name>\n<length, width 8>\n" then hex, 72 digits a line.
    static func rawProfile(_ name: String, _ data: [UInt8]) -> [UInt8] {
        let digits = Array("0123456789abcdef".utf8)
        let length = String(data.count)
        var text = ascii("\n\(name)\n") + [UInt8](repeating: 0x20, count: max(0, 8 - length.count)) + ascii(length) + [0x0A]
        for (index, byte) in data.enumerated() {
            text += [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]]
            if index % 36 == 35 { text.append(0x0A) }
        }
        return text + [0x0A]
    }

    // MARK: WebP

    /// RIFF/WEBP with a VP8X header (1x1 canvas, the given feature flags) and the chunk.
    static func webp(flags: UInt8, _ chunk: [UInt8]) -> [UInt8] {
        let vp8x = riffChunk("VP8X", [flags, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        let body = ascii("WEBP") + vp8x + chunk
        return ascii("RIFF") + le32(body.count) + body
    }

    static func riffChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        ascii(type) + le32(data.count) + data + (data.count % 2 == 1 ? [0] : [])
    }

    // MARK: TIFF

    /// A little-endian TIFF whose IFD0 holds a 1x1 size and one tag with the payload as its value.
    static func tiff(tag: Int, type: Int, _ payload: [UInt8]) -> [UInt8] {
        func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func entry(_ tag: Int, _ type: Int, _ count: Int, _ value: [UInt8]) -> [UInt8] {
            le16(tag) + le16(type) + le32(count) + value + [UInt8](repeating: 0, count: 4 - value.count)
        }
        let dataOffset = 8 + 2 + 3 * 12 + 4
        let valueField = payload.count <= 4 ? payload : le32(dataOffset)
        return [0x49, 0x49, 0x2A, 0x00] + le32(8) + le16(3) + entry(0x0100, 3, 1, le16(1)) + entry(0x0101, 3, 1, le16(1))
            + entry(tag, type, payload.count, valueField) + le32(0) + (payload.count <= 4 ? [] : payload)
    }

    // MARK: ISO base media (HEIF, JPEG XL, CR3)

    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        be32(8 + payload.count) + ascii(type) + payload
    }

    static func fullBox(_ type: String, version: UInt8, _ payload: [UInt8]) -> [UInt8] {
        box(type, [version, 0, 0, 0] + payload)
    }

    /// A HEIF with a 1x1 `hvc1` primary item (no data) and item 2 holding `data` in `mdat`.
    static func heif(itemType: String, contentType: String?, data: [UInt8]) -> [UInt8] {
        let ftyp = box("ftyp", ascii("heic") + be32(0) + ascii("mif1heic"))
        let hdlr = fullBox("hdlr", version: 0, be32(0) + ascii("pict") + [UInt8](repeating: 0, count: 12) + [0])
        let pitm = fullBox("pitm", version: 0, be16(1))
        var itemStrings: [UInt8] = [0]  // item_name, then content_type for `mime` items
        if let contentType { itemStrings += ascii(contentType) + [0] }
        let iinf = fullBox(
            "iinf", version: 0,
            be16(2) + fullBox("infe", version: 2, be16(1) + be16(0) + ascii("hvc1") + [0])
                + fullBox("infe", version: 2, be16(2) + be16(0) + ascii(itemType) + itemStrings))
        let iref = fullBox("iref", version: 0, box("cdsc", be16(2) + be16(1) + be16(1)))
        let iprp = box(
            "iprp",
            box("ipco", fullBox("ispe", version: 0, be32(1) + be32(1)))
                + fullBox("ipma", version: 0, be32(1) + be16(1) + [1, 0x81]))
        // iloc v0: 4-byte offsets and lengths, no base offset; the offset is patched below.
        func iloc(_ offset: Int) -> [UInt8] {
            fullBox("iloc", version: 0, [0x44, 0x00] + be16(1) + be16(2) + be16(0) + be16(1) + be32(offset) + be32(data.count))
        }
        func meta(_ offset: Int) -> [UInt8] { fullBox("meta", version: 0, hdlr + pitm + iloc(offset) + iinf + iref + iprp) }
        let dataOffset = ftyp.count + meta(0).count + 8
        return ftyp + meta(dataOffset) + box("mdat", data)
    }

    /// A Canon CRW: a CIFF header with an empty heap, then the "CANON OPTIONAL DATA" trailer
    /// around `blocks`, its lengths counting the file the blocks describe (holes expanded).
    static func crw(trailerBlocks blocks: [UInt8]) -> [UInt8] {
        let signature = ascii("CANON OPTIONAL DATA") + [0]
        let length = SparseFuzzFile.expandedSize(of: blocks)
        let header: [UInt8] = [0x49, 0x49, 26, 0, 0, 0] + ascii("HEAPCCDR") + [2, 0, 1, 0] + [UInt8](repeating: 0, count: 14)
        return header + signature + [0, 1, 0, 0] + be32(length) + blocks
            + signature + be32(length) + [UInt8](repeating: 0, count: 64 - signature.count - 4)
    }

    /// A Canon CR3: ftyp, then moov holding the Canon uuid box with the given CMT boxes.
    static func cr3(_ parts: [UInt8]) -> [UInt8] {
        let canon: [UInt8] = [
            0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B, 0x6A, 0x48,
        ]
        let ftyp = box("ftyp", ascii("crx ") + be32(1) + ascii("crx isom"))
        return ftyp + box("moov", box("uuid", canon + parts))
    }

    /// A JPEG XL container: signature box, ftyp, the metadata box, then a stub codestream box.
    static func jxl(_ metadataBox: [UInt8]) -> [UInt8] {
        let signature: [UInt8] = [0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]
        return signature + box("ftyp", ascii("jxl ") + be32(0) + ascii("jxl ")) + metadataBox
            + box("jxlc", [0xFF, 0x0A, 0x00, 0x00])
    }
}
