/// The text photo search matches, folded so that neither case nor accents matter: "Café",
/// "CAFE" and "café" all fold to "cafe", "ÉTÉ" to "ete", "Straße" to "strasse".
///
/// The index and the query are folded by this one function, so they cannot disagree. SQLite's
/// own folding is not used: the trigram tokenizer of Debian's SQLite (3.40) cannot remove
/// diacritics, and the index is built case-sensitive so that its terms are exactly this text.
public enum SearchText {
    /// `text` in compatibility-decomposed form (full-width letters, ligatures and the like
    /// become plain letters), lowercased, with combining marks and invisible format characters
    /// removed, a few letters that do not decompose spelled out (ß, æ, ø, ł, …), and white
    /// space and control characters as plain spaces.
    public static func fold(_ text: String) -> String {
        fold(text, decomposingWith: CompatibilityDecomposition.nfkd)
    }

    /// `fold` with another NFKD (the tests compare Foundation's, which folded older indexes).
    static func fold(_ text: String, decomposingWith nfkd: (String) -> String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return foldASCII(text) }
        // Lowercasing can itself add a combining mark ("İ" becomes "i" and U+0307), hence the
        // decomposition after it as well.
        let decomposed = nfkd(nfkd(text).lowercased())
        var folded = String.UnicodeScalarView()
        for scalar in decomposed.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .format:
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

    /// Letters that are not a base letter plus a mark, so decomposition leaves them as they are.
    private static let spelledOut: [Unicode.Scalar: String] = [
        "ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ħ": "h",
        "ı": "i", "ŧ": "t", "ς": "σ",
    ]

    private static func foldASCII(_ text: String) -> String {
        let bytes = text.utf8.map { byte -> UInt8 in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte + 32
            case 0..<0x20, 0x7F: UInt8(ascii: " ")
            default: byte
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The text searched for one asset: its description, file name (the path's last component),
    /// make and model, each folded, one per line (a word never spans two: none holds a newline).
    /// `fold` folds one field (`fold(_:)`, or a cache of it).
    static func document(description: String?, path: [UInt8], make: String?, model: String?,
                         fold: (String) -> String = fold) -> String {
        fields(description: description, path: path, make: make, model: model, fold: fold).compactMap { $0 }.joined()
    }

    /// The same four fields, each folded and ended by a newline (nil when absent): the columns
    /// of the search index. The newline makes every character but a field's last begin a
    /// trigram, so a word of two characters is found through the terms that begin with it.
    static func fields(description: String?, path: [UInt8], make: String?, model: String?,
                       fold: (String) -> String = fold) -> [String?] {
        [description, String(decoding: name(of: path), as: UTF8.self), make, model].map { $0.map { fold($0) + "\n" } }
    }

    /// The part of a path the text holds: its file name.
    static func name(of path: [UInt8]) -> ArraySlice<UInt8> {
        path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true).last ?? path[...]
    }
}
