/// Unicode normalization form KD (compatibility decomposition) without Foundation: the same
/// scalars as Foundation's `decomposedStringWithCompatibilityMapping`, since the per-scalar
/// decompositions are Foundation's own (CompatibilityDecompositionTable.swift, generated) and the
/// rest is the algorithm of Unicode's UAX #15: Hangul syllables computed, then combining marks
/// put in canonical order. SearchTextFoundationTests compares the two on every scalar.
enum CompatibilityDecomposition {
    /// `text` in NFKD.
    static func nfkd(_ text: String) -> String {
        var scalars: [Unicode.Scalar] = []
        scalars.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars { decompose(scalar, into: &scalars) }
        reorderMarks(&scalars)
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars)
        return String(result)
    }

    private static func decompose(_ scalar: Unicode.Scalar, into scalars: inout [Unicode.Scalar]) {
        let value = scalar.value
        if value < 0xA0 {
            scalars.append(scalar)
        } else if (hangulBase..<hangulBase + 11_172).contains(value) {
            // A syllable is a leading consonant, a vowel and maybe a trailing consonant (UAX #15).
            let index = value - hangulBase
            let trailing = index % 28
            scalars.append(jamo(0x1100 + index / 588))
            scalars.append(jamo(0x1161 + (index % 588) / 28))
            if trailing != 0 { scalars.append(jamo(0x11A7 + trailing)) }
        } else if let entry = table.index[value] {
            scalars.append(contentsOf: table.scalars[Int(entry >> 5)..<Int((entry >> 5) + (entry & 31))])
        } else {
            scalars.append(scalar)
        }
    }

    private static let hangulBase: UInt32 = 0xAC00

    private static func jamo(_ value: UInt32) -> Unicode.Scalar {
        // The Hangul jamo block is all assigned scalars; the fallback is never taken.
        Unicode.Scalar(value) ?? "\u{FFFD}"
    }

    /// Sorts each run of combining marks by canonical combining class, keeping the order of marks
    /// of the same class. Each run is sorted on its own (n log n), so hostile text of a million
    /// marks costs no more than its length allows.
    private static func reorderMarks(_ scalars: inout [Unicode.Scalar]) {
        var start = 0
        while start < scalars.count {
            guard combiningClass(scalars[start]) != 0 else {
                start += 1
                continue
            }
            var end = start + 1
            while end < scalars.count, combiningClass(scalars[end]) != 0 { end += 1 }
            if end - start > 1 {
                let sorted = scalars[start..<end].enumerated()
                    .sorted { (combiningClass($0.element), $0.offset) < (combiningClass($1.element), $1.offset) }
                scalars.replaceSubrange(start..<end, with: sorted.map(\.element))
            }
            start = end
        }
    }

    private static func combiningClass(_ scalar: Unicode.Scalar) -> UInt8 {
        scalar.value < 0x300 ? 0 : scalar.properties.canonicalCombiningClass.rawValue
    }

    /// The decompositions: `index` maps a scalar to where its decomposition starts in `scalars`
    /// (shifted left by 5) and how many scalars it has (the low 5 bits; at most 18).
    private static let table: (index: [UInt32: UInt32], scalars: [Unicode.Scalar]) = {
        var index: [UInt32: UInt32] = [:]
        var scalars: [Unicode.Scalar] = []
        index.reserveCapacity(6000)
        scalars.reserveCapacity(16_000)
        for line in tableText.utf8.split(separator: UInt8(ascii: "\n")) {
            let values = line.split(separator: UInt8(ascii: " ")).compactMap {
                UInt32(String(decoding: $0, as: UTF8.self), radix: 16).flatMap(Unicode.Scalar.init)
            }
            guard let first = values.first, values.count > 1, values.count <= 32 else { continue }
            index[first.value] = UInt32(scalars.count) << 5 | UInt32(values.count - 1)
            scalars.append(contentsOf: values.dropFirst())
        }
        return (index, scalars)
    }()
}
