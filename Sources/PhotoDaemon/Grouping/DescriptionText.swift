#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns a description's raw bytes into text, and text into its normalized group form.
public enum DescriptionText {
    /// Bytes up to the first NUL, decoded as UTF-8, or as Latin-1 when they are not valid UTF-8
    /// (every byte maps to a character, so nothing is dropped).
    public static func decode(_ bytes: [UInt8]) -> String {
        let end = bytes.firstIndex(of: 0) ?? bytes.endIndex
        let cut = bytes[..<end]
        if let text = String(validating: cut, as: UTF8.self) { return text }
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: cut.map { Unicode.Scalar($0) })
        return String(scalars)
    }

    /// Leading and trailing white space trimmed, inner runs of white space folded to one
    /// space, then Unicode NFC (so "é" typed two ways is one group).
    public static func normalize(_ text: String) -> String {
        normalizeASCII(text.utf8) ?? normalizeUnicode(text)
    }

    /// The general path: Unicode white space, then NFC (`compose`: the tests give Foundation's).
    static func normalizeUnicode(_ text: String, compose: (String) -> String = standardNFC) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for character in text {
            if character.isWhitespace {
                pendingSpace = !result.isEmpty
                continue
            }
            if pendingSpace {
                result.append(" ")
                pendingSpace = false
            }
            result.append(character)
        }
        return compose(result)
    }

    /// The standard library's NFC (FoundationEssentials has none). It differs from full
    /// Foundation's only where Foundation was wrong: past 63 marks in a row Foundation lost
    /// marks, it left a precomposed Hangul syllable and a trailing jamo apart, turned an archaic
    /// leading jamo and a vowel into U+FFFD, and did not know the marks of Unicode 16 and 17
    /// (DescriptionTextFoundationTests).
    static func standardNFC(_ text: String) -> String {
        String(decoding: text._nfcCodeUnits, as: UTF8.self)
    }

    /// The same rules on pure ASCII bytes, which need no Unicode tables and are already NFC;
    /// nil when a byte is not ASCII. Most descriptions take this path.
    private static func normalizeASCII(_ bytes: String.UTF8View) -> String? {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var pendingSpace = false
        for byte in bytes {
            guard byte < 0x80 else { return nil }
            // ASCII white space as Unicode's White_Space property has it: tab, LF, VT, FF, CR, space.
            if byte == 0x20 || (0x09...0x0D).contains(byte) {
                pendingSpace = !output.isEmpty
                continue
            }
            if pendingSpace {
                output.append(0x20)
                pendingSpace = false
            }
            output.append(byte)
        }
        return String(decoding: output, as: UTF8.self)
    }
}
