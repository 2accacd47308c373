import ZlibInflate

/// Walks PNG chunks for EXIF (`eXIf`, or the legacy hex "Raw profile type exif" text that
/// ImageMagick and exiv2 write), XMP (iTXt "XML:com.adobe.xmp") and IPTC ("Raw profile type iptc").
///
/// Metadata chunks may follow the image data, so the walk continues to IEND; image data is
/// skipped by its length, never read.
enum PNGScanner {
    /// A PNG has a few dozen chunks, or some thousand IDAT chunks in a large image.
    static let maxChunks = 10_000
    /// A compressed text chunk or its inflated text past this size is not metadata worth reading.
    static let textLimit = 4 * 1024 * 1024

    /// A PNG keyword is 1 to 79 bytes, then a NUL.
    private static let maxKeywordLength = 79
    private static let signatureLength = 8
    private static let rawProfile = Array("Raw profile type ".utf8)
    private static let xmpKeyword = Array("XML:com.adobe.xmp".utf8)

    static func scan<Source: ByteSource>(_ source: inout Source) -> ContainerFacts {
        var facts = ContainerFacts()
        var position = signatureLength
        var chunks = 0
        while chunks < maxChunks, let header = source.exactly(8, at: position), let length = header.uint32BE(at: 0),
            let type = header.fourCC(at: 4)
        {
            chunks += 1
            let dataStart = position + 8
            let dataLength = Int(length)
            switch type {
            case fourCC("IHDR"):
                let data = source.bytes(at: dataStart, count: 8)
                if let width = data.uint32BE(at: 0), let height = data.uint32BE(at: 4), width > 0, height > 0,
                    width <= UInt32(Int32.max), height <= UInt32(Int32.max)
                {
                    facts.width = Int(width)
                    facts.height = Int(height)
                }
            case fourCC("eXIf") where facts.exifPayload == nil:
                var window = ByteWindow(source, offset: dataStart, length: dataLength)
                facts.adoptTIFF(&window)
            case fourCC("tEXt"), fourCC("zTXt"), fourCC("iTXt"):
                // The keyword first: other text (comments, software names) is never read, and a
                // kind of metadata already found is not read or inflated again.
                let keyword = source.bytes(at: dataStart, count: min(dataLength, maxKeywordLength + 1)).prefix { $0 != 0 }
                if dataLength <= textLimit, wanted(keyword: Array(keyword), by: facts) {
                    let data = source.bytes(at: dataStart, count: dataLength)
                    text(chunk: type, data: data, into: &facts, budget: source.budget)
                }
            case fourCC("IEND"):
                return facts
            default:
                break
            }
            // Length, type and CRC around the data.
            position = dataStart + dataLength + 4
        }
        return facts
    }

    /// Whether a text chunk with this keyword may give something not found yet.
    private static func wanted(keyword: [UInt8], by facts: ContainerFacts) -> Bool {
        if keyword == xmpKeyword { return facts.xmpPacket == nil }
        guard keyword.starts(with: rawProfile) else { return false }
        switch String(decoding: keyword.dropFirst(rawProfile.count), as: UTF8.self).lowercased() {
        case "exif": return facts.exifPayload == nil
        case "app1": return facts.exifPayload == nil || facts.xmpPacket == nil
        case "iptc", "8bim": return facts.iptc == nil || facts.photoshop == nil
        case "xmp": return facts.xmpPacket == nil
        default: return false
        }
    }

    /// Reads one text chunk whose keyword names metadata; inflating it is charged to `budget`.
    private static func text(
        chunk type: UInt32, data: ArraySlice<UInt8>, into facts: inout ContainerFacts, budget: ReadBudget
    ) {
        guard let keywordEnd = data.firstIndex(of: 0) else { return }
        let keyword = Array(data[data.startIndex..<keywordEnd])
        var rest = data[(keywordEnd + 1)...]
        var compressed = type == fourCC("zTXt")
        if type == fourCC("iTXt") {
            // Compression flag and method, then language tag and translated keyword, each NUL-terminated.
            guard rest.count >= 2 else { return }
            compressed = rest[rest.startIndex] == 1
            rest = rest.dropFirst(2)
            for _ in 0..<2 {
                guard let end = rest.firstIndex(of: 0) else { return }
                rest = rest[(end + 1)...]
            }
        } else if compressed {
            rest = rest.dropFirst()  // compression method byte
        }
        let isXMP = keyword == xmpKeyword
        guard isXMP || keyword.starts(with: rawProfile) else { return }
        let body: ArraySlice<UInt8>
        if compressed {
            // Each inflated byte counts like a read one: a thousand small chunks that each inflate
            // to 4 MiB and then fail to decode would otherwise cost 4 GiB of work.
            guard let inflated = Zlib.inflate(rest, limit: min(textLimit, budget.remaining)),
                budget.spend(inflated.count)
            else { return }
            body = inflated[...]
        } else {
            body = rest
        }
        if isXMP {
            if facts.xmpPacket == nil { facts.xmpPacket = body }
            return
        }
        let profile = String(decoding: keyword.dropFirst(rawProfile.count), as: UTF8.self).lowercased()
        guard let bytes = RawProfile.decode(body) else { return }
        switch profile {
        case "exif", "app1":
            // ImageMagick writes "Exif\0\0" before the TIFF block; some writers leave it out.
            let tiff = bytes.starts(with: TIFFHeader.exifPrefix) ? bytes.dropFirst(TIFFHeader.exifPrefix.count) : bytes[...]
            if facts.exifPayload == nil, TIFFHeader.parse(tiff.prefix(TIFFHeader.length)) != nil {
                var window = MemoryByteSource(Array(tiff), budget: budget)
                facts.adoptTIFF(&window)
            } else if profile == "app1", facts.xmpPacket == nil, bytes.starts(with: Array("http://ns.adobe.com/xap/1.0/".utf8)) {
                facts.xmpPacket = bytes.drop { $0 != 0 }.dropFirst()
            }
        case "iptc", "8bim":
            if bytes.starts(with: Array("8BIM".utf8)) {
                if facts.photoshop == nil { facts.photoshop = bytes[...] }
            } else if facts.iptc == nil {
                facts.iptc = bytes[...]
            }
        case "xmp":
            if facts.xmpPacket == nil { facts.xmpPacket = bytes[...] }
        default:
            break
        }
    }
}

/// The "Raw profile type" text: "\n<name>\n<spaces><decimal length>\n" and then that many bytes in hex.
enum RawProfile {
    static func decode(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        var index = text.startIndex
        // Skip the newline and the profile name line.
        while index < text.endIndex, text[index] == 0x0A { index += 1 }
        guard let nameEnd = text[index...].firstIndex(of: 0x0A) else { return nil }
        index = nameEnd + 1
        while index < text.endIndex, text[index] == 0x20 { index += 1 }
        var length = 0
        while index < text.endIndex, let digit = decimal(text[index]) {
            length = length * 10 + digit
            guard length <= PNGScanner.textLimit else { return nil }
            index += 1
        }
        guard length > 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(length)
        var high: UInt8?
        while index < text.endIndex, bytes.count < length {
            let byte = text[index]
            index += 1
            guard let nibble = hex(byte) else {
                guard XML.isSpace(byte) else { return nil }
                continue
            }
            if let first = high {
                bytes.append(first << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return bytes.count == length ? bytes : nil
    }

    private static func decimal(_ byte: UInt8) -> Int? {
        byte >= 0x30 && byte <= 0x39 ? Int(byte - 0x30) : nil
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x61...0x66: byte - 0x61 + 10
        case 0x41...0x46: byte - 0x41 + 10
        default: nil
        }
    }
}
