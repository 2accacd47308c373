import FileSystem

/// The names programs give the file they write next to a photo and then rename over it, so
/// that the photo is replaced whole: such a file is about to become the photo, not a new one.
///
/// Matched on the name's bytes (ASCII patterns). A name matched wrongly costs only time: the
/// decoder holds a file with such a name back for `SettlingFiles.grace`, then announces it like
/// any other. Hidden names (GLib's `.goutputstream-XXXXXX`, rsync's `.NAME.XXXXXX`) are
/// outside the library anyway.
public enum TemporaryName {
    /// Whether `name` (one path component) looks like a temporary file of an editor or tool.
    public static func isTemporary(_ name: [UInt8]) -> Bool {
        let lower = name.map(lowercased)
        // ExifTool: NAME_exiftool_tmp.
        if contains(lower, "_exiftool_tmp") { return true }
        // digiKam: NAME.digikamtempfile.XXXXXX.EXT.
        if contains(lower, ".digikamtempfile.") { return true }
        // Downloads and editors that mark a file in progress.
        for suffix in [".tmp", ".temp", ".part", ".crdownload"] where lower.count > suffix.utf8.count {
            if lower.suffix(suffix.utf8.count).elementsEqual(suffix.utf8) { return true }
        }
        // GNU sed -i: sedXXXXXX (mkostemp).
        if name.count == 9, name.starts(with: "sed".utf8), name.dropFirst(3).allSatisfy(isAlphanumeric) { return true }
        // Python's tempfile: tmp + 8 of [a-z0-9_], then the caller's suffix (.jpg).
        if name.count >= 11, name.starts(with: "tmp".utf8),
           name.dropFirst(3).prefix(8).allSatisfy({ isAlphanumeric($0) && !isUppercase($0) || $0 == UInt8(ascii: "_") }),
           name.count == 11 || name[11] == UInt8(ascii: ".") {
            return true
        }
        // mkstemp after the photo's own name, as Qt's QSaveFile writes it: NAME.EXT.XXXXXX.
        let parts = name.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        if parts.count >= 3, let last = parts.last, last.count == 6, last.allSatisfy(isAlphanumeric),
           !parts[parts.count - 2].isEmpty {
            return true
        }
        return false
    }

    /// Whether `backup` is the name ExifTool gives the original it keeps of `photo` when it
    /// saves without -overwrite_original (`NAME_original`, in the same folder).
    public static func isBackup(_ backup: PathBytes, of photo: PathBytes) -> Bool {
        backup == photo.appendingToName(backupSuffix)
    }

    private static let backupSuffix = Array("_original".utf8)

    private static func contains(_ bytes: [UInt8], _ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard bytes.count >= needle.count else { return false }
        return (0...(bytes.count - needle.count)).contains { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        isUppercase(byte) ? byte + 32 : byte
    }

    private static func isUppercase(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        isUppercase(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
