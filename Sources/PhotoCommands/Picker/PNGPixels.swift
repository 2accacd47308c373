import ZlibInflate

/// The RGB pixels of a thumbnail PNG, for a terminal drawn in sixel: 8-bit, not interlaced,
/// gray, gray and alpha, RGB or RGBA (what photod's worker writes); anything else is nil, and
/// the picker shows text. Sizes are checked before anything is allocated.
enum PNGPixels {
    /// The largest side taken: thumbnails are at most 256 px, and 2048 bounds a hostile reply.
    static let maximumSide = 2048

    /// An image as rows of RGB bytes.
    struct Image: Equatable, Sendable {
        let width: Int
        let height: Int
        /// `width * height * 3` bytes, row after row.
        let rgb: [UInt8]
    }

    /// Decodes `png`; nil when it is not a PNG this reads.
    static func decode(_ png: [UInt8]) -> Image? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard png.count > 8, Array(png[0..<8]) == signature else { return nil }
        var offset = 8
        var header: (width: Int, height: Int, channels: Int)?
        var compressed: [UInt8] = []
        while offset + 12 <= png.count {
            let length = Int(be32(png, offset))
            let type = String(decoding: png[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let start = offset + 8
            guard length <= png.count - start - 4 else { return nil }
            let body = png[start..<(start + length)]
            switch type {
            case "IHDR":
                guard let found = Self.header(body) else { return nil }
                header = found
            case "IDAT":
                compressed += body
            case "IEND":
                guard let header else { return nil }
                return Self.image(compressed, header)
            default:
                break
            }
            offset = start + length + 4
        }
        return nil
    }

    /// Width, height and channels from IHDR, for the kinds this reads.
    private static func header(_ body: ArraySlice<UInt8>) -> (width: Int, height: Int, channels: Int)? {
        guard body.count == 13 else { return nil }
        let base = body.startIndex
        let width = Int(be32(Array(body), 0)), height = Int(be32(Array(body), 4))
        let depth = body[base + 8], color = body[base + 9], interlace = body[base + 12]
        guard (1...maximumSide).contains(width), (1...maximumSide).contains(height), depth == 8, interlace == 0 else {
            return nil
        }
        switch color {
        case 0: return (width, height, 1)
        case 2: return (width, height, 3)
        case 4: return (width, height, 2)
        case 6: return (width, height, 4)
        default: return nil
        }
    }

    /// Inflates and unfilters the image data, then keeps the colour (gray spread to RGB, alpha dropped).
    private static func image(_ compressed: [UInt8], _ header: (width: Int, height: Int, channels: Int)) -> Image? {
        let stride = header.width * header.channels
        let expected = header.height * (stride + 1)
        guard let raw = Zlib.inflate(compressed[...], limit: expected), raw.count == expected else { return nil }
        var previous = [UInt8](repeating: 0, count: stride)
        var rgb: [UInt8] = []
        rgb.reserveCapacity(header.width * header.height * 3)
        for row in 0..<header.height {
            let start = row * (stride + 1)
            guard var line = unfilter(raw[(start + 1)..<(start + 1 + stride)], filter: raw[start], previous: previous,
                                      channels: header.channels) else { return nil }
            for x in 0..<header.width {
                let pixel = x * header.channels
                if header.channels < 3 {
                    rgb += [line[pixel], line[pixel], line[pixel]]
                } else {
                    rgb += [line[pixel], line[pixel + 1], line[pixel + 2]]
                }
            }
            swap(&previous, &line)
        }
        return Image(width: header.width, height: header.height, rgb: rgb)
    }

    /// One row with its PNG filter undone; nil for an unknown filter.
    private static func unfilter(_ filtered: ArraySlice<UInt8>, filter: UInt8, previous: [UInt8], channels: Int) -> [UInt8]? {
        var line = Array(filtered)
        for index in line.indices {
            let left = index >= channels ? Int(line[index - channels]) : 0
            let up = Int(previous[index])
            let upperLeft = index >= channels ? Int(previous[index - channels]) : 0
            let predicted: Int
            switch filter {
            case 0: predicted = 0
            case 1: predicted = left
            case 2: predicted = up
            case 3: predicted = (left + up) / 2
            case 4: predicted = paeth(left, up, upperLeft)
            default: return nil
            }
            line[index] = UInt8(truncatingIfNeeded: Int(line[index]) + predicted)
        }
        return line
    }

    /// The Paeth predictor of the PNG specification.
    private static func paeth(_ a: Int, _ b: Int, _ c: Int) -> Int {
        let p = a + b - c
        let pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }

    /// The big-endian 32-bit number at `offset`.
    private static func be32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }
}
