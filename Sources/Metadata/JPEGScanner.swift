/// Walks JPEG markers from SOI to the image data, collecting the EXIF APP1 payload and the frame size.
enum JPEGScanner {
    /// Real files have a dozen or so segments; the cap bounds the work a crafted file can cause.
    static let maxSteps = 256

    private static let exifHeader: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]  // "Exif\0\0"

    static func scan<Source: ByteSource>(_ source: inout Source) -> ContainerFacts {
        var facts = ContainerFacts()
        var position = 2  // just after SOI, which sniffing already checked
        var steps = 0
        while steps < maxSteps, position + 2 <= source.size {
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
                return facts
            default:
                break
            }
            guard let length = header.uint16BE(at: 2), length >= 2 else { break }
            let payloadStart = position + 4
            let payloadLength = Int(length) - 2

            if marker == 0xE1, facts.exifPayload == nil,
                source.bytes(at: payloadStart, count: exifHeader.count).matches(exifHeader)
            {
                // A truncated payload is still handed over: libexif bounds-checks, and IFD0 is usually intact.
                facts.exifPayload = source.bytes(at: payloadStart, count: payloadLength)
            } else if isFrameHeader(marker), facts.width == nil {
                let frame = source.bytes(at: payloadStart, count: 5)
                if let height = frame.uint16BE(at: 1), let width = frame.uint16BE(at: 3), height > 0, width > 0 {
                    facts.width = Int(width)
                    facts.height = Int(height)
                }
            }
            if facts.exifPayload != nil, facts.width != nil {
                return facts
            }
            position = payloadStart + payloadLength
        }
        return facts
    }

    /// SOF0...SOF15 except DHT (C4), JPG (C8) and DAC (CC), which share the range.
    private static func isFrameHeader(_ marker: UInt8) -> Bool {
        marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }
}
