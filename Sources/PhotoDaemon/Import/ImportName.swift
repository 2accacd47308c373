import Metadata

/// The file name an imported photo gets: the app's name made safe, or one photod makes.
///
/// An app's name is hostile: it could climb out of the folder (`../x`), hide (`.x`), carry
/// control bytes into a terminal that lists the folder, or be longer than a name may be. Only
/// its last component is kept, control characters and leading dots and spaces go, and it is
/// cut at a UTF-8 boundary. The extension is the app's when it is one of the format's names
/// (a raw keeps `.nef`), else the format's own: the bytes decide what the file is, never the
/// name, but a person browsing the folder goes by the name.
enum ImportName {
    /// Bytes a made-safe name keeps before its extension: room for " (999)" and an extension
    /// below NAME_MAX (255).
    static let maxStemBytes = 200

    /// The name for a photo of `format`: `requested` made safe, or when nothing usable is left
    /// of it, "IMG_YYYYMMDD_HHMMSS" from `now` ("2026-11-28T17:05:09").
    static func make(_ requested: String?, format: ImageFormat, now: String) -> String {
        var name = Substring(requested ?? "")
        if let slash = name.lastIndex(of: "/") { name = name[name.index(after: slash)...] }
        var cleaned = String(String.UnicodeScalarView(name.unicodeScalars.filter { !isControl($0) }))
        while let first = cleaned.first, first == "." || first.isWhitespace { cleaned.removeFirst() }
        while let last = cleaned.last, last.isWhitespace { cleaned.removeLast() }
        var stem = cleaned
        var ext = canonicalExtension(format)
        if let dot = cleaned.lastIndex(of: "."), dot != cleaned.startIndex {
            let given = String(cleaned[cleaned.index(after: dot)...])
            stem = String(cleaned[..<dot])
            if extensions(of: format).contains(given.lowercased()) { ext = given }
        }
        stem = cut(stem, toBytes: maxStemBytes)
        while let last = stem.last, last.isWhitespace || last == "." { stem.removeLast() }
        if stem.isEmpty { stem = generated(now) }
        return stem + "." + ext
    }

    /// "IMG_20261128_170509" for "2026-11-28T17:05:09".
    static func generated(_ now: String) -> String {
        let digits = now.prefix(19).filter(\.isNumber)
        guard digits.count == 14 else { return "IMG_import" }
        return "IMG_" + digits.prefix(8) + "_" + digits.suffix(6)
    }

    /// The extension photod gives a photo of `format` when the app's name has none of its own.
    static func canonicalExtension(_ format: ImageFormat) -> String {
        switch format {
        case .jpeg: "jpg"
        case .tiff, .bigtiff: "tif"
        case .heif: "heic"
        default: format.rawValue
        }
    }

    /// The extensions a file of `format` may have; TIFF-based raws are `.tiff` by their bytes.
    static func extensions(of format: ImageFormat) -> Set<String> {
        switch format {
        case .jpeg: ["jpg", "jpeg", "jpe", "jfif"]
        case .tiff: ["tif", "tiff", "dng", "nef", "nrw", "cr2", "arw", "srf", "sr2", "orf", "rw2", "pef", "srw",
                     "iiq", "3fr", "erf", "kdc", "mos", "raw"]
        case .bigtiff: ["tif", "tiff", "btf"]
        case .heif: ["heic", "heif"]
        default: [format.rawValue]
        }
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned: true
        default: false
        }
    }

    /// `text` cut to at most `limit` bytes of UTF-8, never inside a character.
    private static func cut(_ text: String, toBytes limit: Int) -> String {
        var bytes = 0
        var kept = ""
        for character in text {
            bytes += character.utf8.count
            if bytes > limit { break }
            kept.append(character)
        }
        return kept
    }
}
