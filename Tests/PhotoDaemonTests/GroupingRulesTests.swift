import Testing
@testable import PhotoDaemon
import Store

@Suite struct GroupingRulesTests {
    let rules = GroupingRules()

    private func key(_ bytes: [UInt8]?) -> String { rules.assign(description: bytes).key }
    private func key(_ text: String) -> String { key(Array(text.utf8)) }

    @Test func bytesAfterTheFirstNulAreDropped() {
        #expect(key(Array("Beach".utf8) + [0] + Array("junk".utf8)) == "Beach")
        #expect(DescriptionText.decode(Array(" DIGITAL CAMERA ".utf8) + [0, 0x41]) == " DIGITAL CAMERA ")
    }

    @Test func validUTF8IsDecodedAsUTF8() {
        #expect(key("Porträtt på Eva") == "Porträtt på Eva")
    }

    @Test func invalidUTF8IsDecodedAsLatin1WithoutDroppingAnything() {
        #expect(DescriptionText.decode([0x43, 0x61, 0x66, 0xE9]) == "Café")
        #expect(DescriptionText.decode([0xFF, 0x41]) == "ÿA")
    }

    @Test func outerWhiteSpaceIsTrimmedAndInnerRunsFolded() {
        #expect(key("  Beach   Trip \t\n") == "Beach Trip")
        #expect(key("Line one\r\nline two") == "Line one line two")
    }

    @Test func textIsNormalizedToNFC() {
        let decomposed = "Cafe\u{301}"
        let precomposed = "Caf\u{E9}"
        #expect(key(decomposed) == precomposed)
        #expect(Array(key(decomposed).unicodeScalars) == Array(precomposed.unicodeScalars))
    }

    @Test func noDescriptionEmptyOrBlankGoesToTheFallback() {
        #expect(rules.assign(description: nil) == rules.fallback)
        #expect(rules.fallback == GroupAssignment(key: rules.fallbackKey, spelling: "Other"))
        #expect(key([]) == rules.fallbackKey)
        #expect(key([0, 0, 0]) == rules.fallbackKey)
        #expect(key(String(repeating: " ", count: 31)) == rules.fallbackKey)
    }

    @Test func cameraBoilerplateCountsAsNoDescription() {
        #expect(key("OLYMPUS DIGITAL CAMERA         ") == rules.fallbackKey)
        #expect(key(" DIGITAL CAMERA ") == rules.fallbackKey)
        #expect(key("sony dsc") == rules.fallbackKey)
        #expect(key("SONY DSC at the beach") == "SONY DSC at the beach")
    }

    @Test func theBoilerplateListAndFallbackNameComeFromTheRules() {
        let custom = GroupingRules(fallbackName: "Unsorted", boilerplate: ["My Camera"])
        #expect(custom.assign(text: "my  camera") == GroupAssignment(key: custom.fallbackKey, spelling: "Unsorted"))
        #expect(custom.assign(text: "SONY DSC").key == "SONY DSC")
    }

    @Test func caseInsensitiveGroupingFoldsTheKeyButKeepsTheSpelling() {
        let folding = GroupingRules(caseInsensitive: true)
        let assignment = folding.assign(text: "Beach Trip")
        #expect(assignment.key == "beach trip")
        #expect(assignment.spelling == "Beach Trip")
        #expect(folding.assign(text: "BEACH  trip").key == "beach trip")
        #expect(rules.assign(text: "BEACH trip").key != rules.assign(text: "Beach Trip").key)
    }

    @Test func fingerprintsDifferWhenRulesDiffer() {
        #expect(GroupingRules().fingerprint == GroupingRules().fingerprint)
        #expect(GroupingRules(caseInsensitive: true).fingerprint != GroupingRules().fingerprint)
        #expect(GroupingRules(fallbackName: "X").fingerprint != GroupingRules().fingerprint)
    }
}

@Suite struct ISOTimeTests {
    @Test func formatsUTC() {
        #expect(ISOTime.utcString(nanoseconds: 0) == "1970-01-01T00:00:00Z")
        #expect(ISOTime.utcString(nanoseconds: 1_709_294_400_123_000_000) == "2024-03-01T12:00:00Z")
        #expect(ISOTime.utcString(nanoseconds: -1) == "1969-12-31T23:59:59Z")
    }

    @Test func parsesWithAndWithoutOffset() {
        #expect(ISOTime.nanoseconds(from: "2024-03-01T12:00:00") == 1_709_294_400_000_000_000)
        #expect(ISOTime.nanoseconds(from: "2024-03-01T14:00:00+02:00") == 1_709_294_400_000_000_000)
        #expect(ISOTime.nanoseconds(from: "2024-03-01T10:30:00-01:30") == 1_709_294_400_000_000_000)
        #expect(ISOTime.nanoseconds(from: "2024-13-01T12:00:00") == nil)
        #expect(ISOTime.nanoseconds(from: "garbage") == nil)
    }
}

@Suite struct NormalizationFastPathTests {
    /// The ASCII fast path must agree with the Unicode path on every ASCII character.
    @Test func theASCIIPathAgreesWithTheUnicodePath() {
        for value in UInt8(1)..<0x80 {
            let character = String(UnicodeScalar(value))
            for text in ["a\(character)b", "\(character)\(character)ab\(character)", "\(character)"] {
                #expect(DescriptionText.normalize(text) == DescriptionText.normalizeUnicode(text),
                        "byte \(value) in \(text.debugDescription)")
            }
        }
    }
}
