/// A picture as sixel (DEC's graphics in the terminal's own stream: xterm -ti vt340, foot,
/// mlterm, WezTerm): the picker's thumbnail for a terminal that lists sixel in its device
/// attributes. Colours are the 216 of a 6×6×6 cube: enough for a thumbnail, one palette for all.
enum SixelImage {
    /// Roughly the pixels of one terminal cell, for fitting a picture into a box of cells.
    static let cellWidth = 8, cellHeight = 16

    /// `image` scaled (nearest pixel, never up) into `columns` × `rows` cells.
    static func fitted(_ image: PNGPixels.Image, columns: Int, rows: Int) -> PNGPixels.Image {
        let boxWidth = max(1, columns * cellWidth), boxHeight = max(1, rows * cellHeight)
        let scale = min(1.0, Double(boxWidth) / Double(image.width), Double(boxHeight) / Double(image.height))
        let width = max(1, Int(Double(image.width) * scale)), height = max(1, Int(Double(image.height) * scale))
        guard width != image.width || height != image.height else { return image }
        var rgb: [UInt8] = []
        rgb.reserveCapacity(width * height * 3)
        for y in 0..<height {
            let sourceRow = min(image.height - 1, y * image.height / height) * image.width
            for x in 0..<width {
                let source = (sourceRow + min(image.width - 1, x * image.width / width)) * 3
                rgb += image.rgb[source..<(source + 3)]
            }
        }
        return PNGPixels.Image(width: width, height: height, rgb: rgb)
    }

    /// The DCS sequence that draws `image` at the cursor.
    static func encode(_ image: PNGPixels.Image) -> String {
        var out = "\u{1B}P0;1;0q\"1;1;\(image.width);\(image.height)"
        for color in 0..<216 {
            out += "#\(color);2;\(color / 36 * 20);\(color / 6 % 6 * 20);\(color % 6 * 20)"
        }
        let colors = (0..<(image.width * image.height)).map { pixel -> Int in
            let base = pixel * 3
            return level(image.rgb[base]) * 36 + level(image.rgb[base + 1]) * 6 + level(image.rgb[base + 2])
        }
        for top in stride(from: 0, to: image.height, by: 6) {
            // Each colour's sixel column bits across the band, for the colours the band uses.
            var bands: [Int: [UInt8]] = [:]
            for dy in 0..<min(6, image.height - top) {
                let row = (top + dy) * image.width
                for x in 0..<image.width {
                    bands[colors[row + x], default: [UInt8](repeating: 0, count: image.width)][x] |= 1 << dy
                }
            }
            for (index, color) in bands.keys.sorted().enumerated() {
                if index > 0 { out += "$" }
                out += "#\(color)" + runs(bands[color] ?? [])
            }
            out += "-"
        }
        return out + "\u{1B}\\"
    }

    /// A 0–255 channel as one of the cube's six levels.
    private static func level(_ value: UInt8) -> Int {
        (Int(value) * 5 + 127) / 255
    }

    /// Sixel characters for one colour's band, runs of four or more written as `!N`.
    private static func runs(_ bits: [UInt8]) -> String {
        var out = ""
        var index = 0
        while index < bits.count {
            var end = index + 1
            while end < bits.count && bits[end] == bits[index] { end += 1 }
            let character = String(UnicodeScalar(63 + bits[index]))
            out += end - index >= 4 ? "!\(end - index)" + character : String(repeating: character, count: end - index)
            index = end
        }
        return out
    }
}
