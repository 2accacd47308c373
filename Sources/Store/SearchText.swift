import FileSystem
import TextFolding

/// The text photo search matches: each field folded by `TextFolding` (case and accents do not
/// matter), the index and every query by the same function, so they cannot disagree. SQLite's
/// own folding is not used: the trigram tokenizer of Debian's SQLite (3.40) cannot remove
/// diacritics, and the index is built case-sensitive so that its terms are exactly this text.
public enum SearchText {
    /// `text` folded (`TextFolding.fold`).
    public static func fold(_ text: String) -> String {
        TextFolding.fold(text)
    }

    /// The text searched for one asset: its description, file name (the path's last component),
    /// make and model, each folded, one per line (a word never spans two: none holds a newline).
    /// `fold` folds one field (`fold(_:)`, or a cache of it).
    static func document(description: String?, path: PathBytes, make: String?, model: String?,
                         fold: (String) -> String = fold) -> String {
        fields(description: description, path: path, make: make, model: model, fold: fold).compactMap { $0 }.joined()
    }

    /// The same four fields, each folded and ended by a newline (nil when absent): the columns
    /// of the search index. The newline makes every character but a field's last begin a
    /// trigram, so a word of two characters is found through the terms that begin with it.
    static func fields(description: String?, path: PathBytes, make: String?, model: String?,
                       fold: (String) -> String = fold) -> [String?] {
        [description, String(decoding: path.lastComponent, as: UTF8.self), make, model].map { $0.map { fold($0) + "\n" } }
    }
}
