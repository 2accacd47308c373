/// The marker segments of a JPEG before its image data, as the writer needs them: strictly checked,
/// because a segment misread here would be rewritten into the file.
enum JPEGSegments {
    /// One segment with a length: its marker, all its bytes (from FF) and its payload.
    struct Segment {
        var marker: UInt8
        var whole: Range<Int>
        var payload: Range<Int>
    }

    /// Bytes to put in place of a range of the original (an empty range inserts).
    struct Edit {
        var replacing: Range<Int>
        var with: [UInt8]
    }

    /// Real files have a dozen or two segments; each is at least 4 bytes, but a cap bounds the array.
    static let maxSegments = 4096
    /// The most payload one segment's 16-bit length (which counts itself) allows.
    static let maxPayload = 0xFFFF - 2

    /// The segments from SOI up to SOS (or an EOI that comes first); anything malformed throws.
    static func walk(_ bytes: [UInt8]) throws(DescriptionEditError) -> [Segment] {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { throw .notJPEG }
        var segments: [Segment] = []
        var position = 2
        while true {
            guard position + 2 <= bytes.count else { throw .malformedJPEG(reason: "ends before the image data") }
            guard bytes[position] == 0xFF else { throw .malformedJPEG(reason: "no marker at byte \(position)") }
            let marker = bytes[position + 1]
            switch marker {
            case 0xFF:
                position += 1  // fill byte; kept, as everything outside an edited segment is
                continue
            case 0x01, 0xD0...0xD7:
                position += 2  // TEM and RSTn have no length
                continue
            case 0xDA, 0xD9:
                return segments
            case 0x00, 0xD8:
                throw .malformedJPEG(reason: "marker FF \(hex(marker)) at byte \(position)")
            default:
                break
            }
            guard segments.count < maxSegments else { throw .malformedJPEG(reason: "more than \(maxSegments) segments") }
            guard position + 4 <= bytes.count else { throw .malformedJPEG(reason: "truncated segment at byte \(position)") }
            let length = Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            let end = position + 2 + length
            guard length >= 2, end <= bytes.count else {
                throw .malformedJPEG(reason: "segment FF \(hex(marker)) at byte \(position) runs past the file")
            }
            segments.append(Segment(marker: marker, whole: position..<end, payload: (position + 4)..<end))
            position = end
        }
    }

    /// A whole segment (marker, length, payload), refused when the payload does not fit one.
    static func segment(_ marker: UInt8, _ payload: [UInt8], name: String) throws(DescriptionEditError) -> [UInt8] {
        guard payload.count <= maxPayload else { throw .tooLarge(segment: name) }
        let length = payload.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    /// The original with each edit applied; edits never overlap (each is a different segment, or SOI's end).
    static func splice(_ bytes: [UInt8], _ edits: [Edit]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + edits.reduce(0) { $0 + $1.with.count })
        var position = 0
        for edit in edits.sorted(by: { $0.replacing.lowerBound < $1.replacing.lowerBound }) {
            result += bytes[position..<edit.replacing.lowerBound]
            result += edit.with
            position = edit.replacing.upperBound
        }
        result += bytes[position...]
        return result
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }
}
