import CUtf8proc
#if canImport(Glibc)
import Glibc
#endif

/// Text folded so that neither case nor accents matter: "Café", "CAFE" and "café" all fold to
/// "cafe", "ÉTÉ" to "ete", "Straße" to "strasse". Search folds the index and every query with
/// this one function, so they cannot disagree.
///
/// Debian's utf8proc does the Unicode part in one call: compatibility decomposition (NFKD:
/// full-width letters, ligatures and the like become plain letters), case folding and the
/// stripping of combining marks. What it leaves is done here: letters that are not a base letter
/// plus a mark are spelled out (æ, ø, ł, …), format characters dropped, and white space and
/// control characters made plain spaces. The only module that touches utf8proc.
public enum TextFolding {
    /// What a folded text depends on: the rules here and utf8proc's Unicode version. An index
    /// folded under another identity is rebuilt (`SearchIndex.rebuildIfNeeded`).
    public static let identity = "utf8proc Unicode \(String(cString: utf8proc_unicode_version())), rules 1"

    /// The Unicode version utf8proc folds by (15.0 in Debian 12's 2.8): a letter assigned later
    /// (Swift's own tables may know it) is kept as it is, its case too.
    public static let unicodeVersion: (major: Int, minor: Int) = {
        let parts = String(cString: utf8proc_unicode_version()).split(separator: ".").compactMap { Int($0) }
        return (parts.first ?? 0, parts.dropFirst().first ?? 0)
    }()

    /// `text` folded.
    public static func fold(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return foldASCII(text) }
        // Marks go before utf8proc sees them: it orders a run of marks by swapping neighbours,
        // which a hostile run of thousands would make quadratic, and they are stripped anyway.
        var unmarked = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where !isDropped(scalar) { unmarked.append(scalar) }
        var folded = String.UnicodeScalarView()
        for scalar in decomposeAndFoldCase(String(unmarked)).unicodeScalars {
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark, .format:
                continue
            case .control, .spaceSeparator, .lineSeparator, .paragraphSeparator:
                folded.append(" ")
            default:
                if let spelled = spelledOut[scalar] {
                    folded.append(contentsOf: spelled.unicodeScalars)
                } else {
                    folded.append(scalar)
                }
            }
        }
        return String(folded)
    }

    /// `text` folded, as UTF-8: what `fold` gives, without making a `String` of an ASCII text
    /// (a sort key, compared as bytes).
    public static func foldedUTF8(_ text: String) -> [UInt8] {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.utf8.map(foldASCII) }
        return Array(fold(text).utf8)
    }

    private static func isDropped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .format: true
        default: false
        }
    }

    /// NFKD, case folded, marks stripped (utf8proc); the text lowercased should utf8proc fail.
    private static func decomposeAndFoldCase(_ text: String) -> String {
        let options = utf8proc_option_t(rawValue: UTF8PROC_STABLE.rawValue | UTF8PROC_COMPAT.rawValue
            | UTF8PROC_DECOMPOSE.rawValue | UTF8PROC_CASEFOLD.rawValue | UTF8PROC_STRIPMARK.rawValue)
        var result: UnsafeMutablePointer<utf8proc_uint8_t>?
        let length = text.utf8.withContiguousStorageIfAvailable { bytes in
            utf8proc_map(bytes.baseAddress, bytes.count, &result, options)
        } ?? Array(text.utf8).withUnsafeBufferPointer { bytes in
            utf8proc_map(bytes.baseAddress, bytes.count, &result, options)
        }
        defer { free(result) }
        guard length >= 0, let result else { return text.lowercased() }
        return String(decoding: UnsafeBufferPointer(start: result, count: length), as: UTF8.self)
    }

    /// Letters that are not a base letter plus a mark, so decomposition leaves them as they are.
    private static let spelledOut: [Unicode.Scalar: String] = [
        "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ħ": "h",
        "ı": "i", "ŧ": "t",
    ]

    private static func foldASCII(_ text: String) -> String {
        String(decoding: text.utf8.map(foldASCII), as: UTF8.self)
    }

    /// One ASCII byte folded: upper case to lower, control characters to a space.
    private static func foldASCII(_ byte: UInt8) -> UInt8 {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte + 32
        case 0..<0x20, 0x7F: UInt8(ascii: " ")
        default: byte
        }
    }
}
