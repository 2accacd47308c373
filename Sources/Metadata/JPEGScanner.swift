/// Walks JPEG markers from SOI to the image data, collecting the EXIF, XMP and Photoshop (IPTC)
/// segments and the frame size.
enum JPEGScanner {
    /// Real files have a dozen or so segments; the cap bounds the work a crafted file can cause.
    static let maxSteps = 256
    /// Photoshop splits large resource blocks over several APP13 segments; more than this is not a caption.
    private static let photoshopLimit = 1024 * 1024

    private static let xmpHeader: [UInt8] = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]
    private static let photoshopHeader: [UInt8] = Array("Photoshop 3.0".utf8) + [0]

    /// Walks the markers from `start`: just after SOI (which sniffing already checked), or after an EXV signature.
    static func scan<Source: ByteSource>(_ source: inout Source, from start: Int = 2) -> ContainerFacts {
        var facts = ContainerFacts()
        var photoshop: [UInt8] = []
        var position = start
        var steps = 0
        walk: while steps < maxSteps, position + 2 <= source.size {
            steps += 1
            let header = source.bytes(at: position, count: 4)
            guard header.byte(at: 0) == 0xFF, let marker = header.byte(at: 1) else { break }
            switch marker {
            case 0xFF:
                // A fill byte before the real marker.
                position += 1
                continue
            case 0x01, 0xD0...0xD8:
                // Markers without a length (TEM, RSTn, a stray SOI).
                position += 2
                continue
            case 0x00, 0xD9, 0xDA:
                // Stuffed zero means we are not at a marker; EOI and SOS end the header part.
                break walk
            default:
                break
            }
            guard let length = header.uint16BE(at: 2), length >= 2 else { break }
            let payloadStart = position + 4
            let payloadLength = Int(length) - 2

            switch marker {
            case 0xE1:
                let signature = source.bytes(at: payloadStart, count: xmpHeader.count)
                if facts.exifPayload == nil, signature.matches(TIFFHeader.exifPrefix) {
                    // Read like any other TIFF block: only the entries used, each bounds-checked, so a
                    // truncated segment still gives what IFD0 holds and libexif never parses maker notes.
                    let prefix = TIFFHeader.exifPrefix.count
                    var block = ByteWindow(source, offset: payloadStart + prefix, length: payloadLength - prefix)
                    facts.adoptTIFF(&block)
                } else if facts.xmpPacket == nil, signature.matches(xmpHeader) {
                    facts.xmpPacket = source.bytes(
                        at: payloadStart + xmpHeader.count, count: payloadLength - xmpHeader.count)
                }
            case 0xED:
                let segment = source.bytes(at: payloadStart, count: payloadLength)
                if segment.matches(photoshopHeader), photoshop.count + segment.count <= photoshopLimit {
                    photoshop += segment.dropFirst(photoshopHeader.count)
                }
            default:
                if isFrameHeader(marker), facts.width == nil {
                    let frame = source.bytes(at: payloadStart, count: 5)
                    if let height = frame.uint16BE(at: 1), let width = frame.uint16BE(at: 3), height > 0, width > 0 {
                        facts.width = Int(width)
                        facts.height = Int(height)
                    }
                }
            }
            position = payloadStart + payloadLength
        }
        if !photoshop.isEmpty { facts.photoshop = photoshop[...] }
        return facts
    }

    /// SOF0...SOF15 except DHT (C4), JPG (C8) and DAC (CC), which share the range.
    private static func isFrameHeader(_ marker: UInt8) -> Bool {
        marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }
}
