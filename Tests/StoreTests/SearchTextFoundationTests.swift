import Foundation
import PhotoTestSupport
import Testing
@testable import Store

/// SearchText folds without Foundation exactly as it folded with Foundation's
/// `decomposedStringWithCompatibilityMapping`, so an index folded by an older photod needs no
/// rebuild and a query still meets the terms it was built with.
@Suite struct SearchTextFoundationTests {
    private static func foundationFold(_ text: String) -> String {
        SearchText.fold(text) { $0.decomposedStringWithCompatibilityMapping }
    }

    /// Every scalar, in runs of 32 neighbours (so marks next to marks are reordered too): the
    /// same decomposition, and the same fold.
    @Test func everyScalarDecomposesAndFoldsAsWithFoundation() {
        var differing: [String] = []
        for start in stride(from: UInt32(0), through: 0x10FFFF, by: 32) {
            var view = String.UnicodeScalarView()
            view.append(contentsOf: (start..<min(start + 32, 0x110000)).compactMap(Unicode.Scalar.init))
            let text = String(view)
            if CompatibilityDecomposition.nfkd(text) != text.decomposedStringWithCompatibilityMapping
                || SearchText.fold(text) != Self.foundationFold(text) {
                differing.append(Self.hex(start))
            }
        }
        #expect(differing == [], "runs starting at these scalars fold differently")
    }

    /// Random text mixing letters, marks of many combining classes, Hangul and compatibility
    /// characters.
    @Test func randomTextFoldsAsWithFoundation() {
        var random = SplitMix64(seed: 0x4E46_4B44)
        var differing: [String] = []
        for _ in 0..<20_000 {
            var view = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 1...12, using: &random) {
                let range = Self.pools.randomElement(using: &random) ?? 0x41...0x5A
                if let scalar = Unicode.Scalar(UInt32.random(in: range, using: &random)) { view.append(scalar) }
            }
            let text = String(view)
            if SearchText.fold(text) != Self.foundationFold(text) {
                differing.append(text.unicodeScalars.map { Self.hex($0.value) }.joined(separator: " "))
            }
        }
        #expect(differing == [])
    }

    /// Scalars that decompose, reorder or change case in interesting ways.
    private static let pools: [ClosedRange<UInt32>] = [
        0x41...0x7A, 0xC0...0x17F, 0x130...0x131, 0x1C4...0x1CC, 0x300...0x36F, 0x370...0x3FF, 0x400...0x4FF,
        0x591...0x5C7, 0x610...0x61A, 0x64B...0x65F, 0x93C...0x94D, 0xE31...0xE4E, 0xF71...0xF84,
        0x1100...0x11FF, 0x1DC0...0x1DFF, 0x1E00...0x1FFF, 0x20D0...0x20F0, 0x2100...0x218F, 0x2460...0x24FF,
        0x302A...0x302F, 0x3099...0x309A, 0x3300...0x33FF, 0xAC00...0xD7A3, 0xFB00...0xFB4F, 0xFDFA...0xFDFB,
        0xFE20...0xFE2F, 0xFF01...0xFFEE, 0x1D15E...0x1D172, 0x1D400...0x1D7FF, 0x1F100...0x1F1FF,
    ]

    /// After 63 marks in a row Foundation can drop a mark's decomposition ("a", 63 × U+0301,
    /// U+0340 loses the U+0300 that U+0340 stands for): this NFKD keeps it. Such scalars are
    /// marks, which the fold removes, so the folded text is the same.
    @Test func longRunsOfMarksFoldAsWithFoundation() {
        var view = String.UnicodeScalarView()
        view.append("a")
        view.append(contentsOf: Array(repeating: "\u{301}", count: 63))
        view.append("\u{340}")
        let dropped = String(view)
        #expect(dropped.decomposedStringWithCompatibilityMapping.unicodeScalars.count == 64)
        #expect(CompatibilityDecomposition.nfkd(dropped).unicodeScalars.count == 65)
        for _ in 0..<100 { view.append(contentsOf: ["\u{301}", "\u{340}", "\u{344}", "\u{F73}", "\u{316}"]) }
        view.append("B")
        for text in [dropped, String(view)] {
            #expect(SearchText.fold(text) == Self.foundationFold(text))
        }
        #expect(SearchText.fold(String(view)) == "ab")
    }

    @Test func aLongRunOfMarksFoldsWithoutQuadraticReordering() {
        // Descending combining classes (230, 220, 129, 10, 1): the worst order for an insertion sort.
        var view = String.UnicodeScalarView()
        view.append("a")
        for _ in 0..<50_000 { view.append(contentsOf: ["\u{301}", "\u{316}", "\u{F71}", "\u{5B0}", "\u{334}"]) }
        #expect(SearchText.fold(String(view)) == "a")
    }

    private static func hex(_ value: UInt32) -> String { "U+" + String(value, radix: 16, uppercase: true) }
}
