import Foundation
import PhotoTestSupport
import Testing
@testable import PhotoDaemon

/// Group names are normalized to NFC by the standard library now, not by full Foundation: the
/// same names for every text Foundation normalized correctly, so no photo changes group.
@Suite struct DescriptionTextFoundationTests {
    private static func foundation(_ text: String) -> String {
        DescriptionText.normalizeUnicode(text) { $0.precomposedStringWithCanonicalMapping }
    }

    @Test func everyScalarAndEveryRunOfNeighboursIsNormalizedAsByFoundation() {
        var differing: [String] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = "x" + String(Character(scalar))
            if DescriptionText.normalizeUnicode(text) != Self.foundation(text) { differing.append(Self.hex(value)) }
        }
        // Runs of 32 neighbours, leaving out what Foundation does not know (Unicode 16 and 17).
        for start in stride(from: UInt32(0), through: 0x10FFFF, by: 32) {
            var view = String.UnicodeScalarView()
            view.append(contentsOf: (start..<min(start + 32, 0x110000)).compactMap(Unicode.Scalar.init)
                .filter { ($0.properties.age?.major ?? 0) <= 15 })
            let text = String(view)
            if DescriptionText.normalizeUnicode(text) != Self.foundation(text) { differing.append("run " + Self.hex(start)) }
        }
        #expect(differing == [])
    }

    @Test func randomTextIsNormalizedAsByFoundation() {
        let pools: [ClosedRange<UInt32>] = [
            0x20...0x7E, 0xA0...0x17F, 0x300...0x36F, 0x370...0x3FF, 0x400...0x4FF, 0x591...0x5C7, 0x64B...0x65F,
            0x93C...0x94D, 0x9BC...0x9D7, 0xF71...0xF84, 0x1100...0x1112, 0x1161...0x1175, 0x11A8...0x11C2, 0x1E00...0x1FFF, 0x2000...0x200D,
            0x3099...0x309A, 0x304B...0x30FF, 0xAC00...0xD7A3, 0x1D15E...0x1D172, 0x11099...0x110BA, 0x1133E...0x11357,
        ]
        var random = SplitMix64(seed: 0x4E4643)
        var differing: [String] = []
        for _ in 0..<50_000 {
            var scalars: [Unicode.Scalar] = []
            for _ in 0..<Int.random(in: 1...12, using: &random) {
                let range = pools.randomElement(using: &random) ?? 0x41...0x5A
                guard let scalar = Unicode.Scalar(UInt32.random(in: range, using: &random)) else { continue }
                // A precomposed syllable and a trailing jamo: Foundation's known fault, below.
                if let last = scalars.last, Self.isLVSyllable(last), (0x11A8...0x11C2).contains(scalar.value) { continue }
                scalars.append(scalar)
            }
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars)
            let text = String(view)
            if DescriptionText.normalizeUnicode(text) != Self.foundation(text) {
                differing.append(scalars.map { Self.hex($0.value) }.joined(separator: " "))
            }
        }
        #expect(differing == [])
    }

    /// Where the two differ, Foundation was wrong, and group names now follow Unicode.
    @Test func whereFoundationWasWrongTheNamesFollowUnicode() {
        // 가 followed by the trailing jamo ㄱ is the syllable 각 (Unicode's NFC composes them).
        #expect(DescriptionText.normalize("\u{AC00}\u{11A8}") == "\u{AC01}")
        #expect(Self.foundation("\u{AC00}\u{11A8}") == "\u{AC00}\u{11A8}")
        // An archaic leading jamo and a vowel (which compose to no syllable) are kept as they
        // are; Foundation turned them into U+FFFD.
        #expect(DescriptionText.normalize("\u{1113}\u{1173}") == "\u{1113}\u{1173}")
        #expect(Self.foundation("\u{1113}\u{1173}") == "\u{FFFD}")
        // After 63 marks in a row Foundation lost the decomposition of U+0340 (U+0300); it is kept.
        let marks = "x" + String(repeating: "\u{301}", count: 63) + "\u{340}"
        #expect(DescriptionText.normalize(marks).unicodeScalars.count == 65)
        #expect(Self.foundation(marks).unicodeScalars.count == 64)
    }

    private static func isLVSyllable(_ scalar: Unicode.Scalar) -> Bool {
        (0xAC00...0xD7A3).contains(scalar.value) && (scalar.value - 0xAC00) % 28 == 0
    }

    private static func hex(_ value: UInt32) -> String { "U+" + String(value, radix: 16, uppercase: true) }
}
