#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import FileSystem

/// The file names one `photoctl export` has used in its folder, and the numbered name
/// ("IMG_0001 (2).jpg", as file managers number a copy) it gives a photo whose name is taken.
struct ExportNames {
    /// Numbered names tried before giving up: past this, the folder is not one a person reads.
    static let maximumNumber = 9999
    /// The longest file name Linux file systems take (NAME_MAX).
    static let maximumLength = 255

    private let folder: [UInt8]
    private var used: Set<[UInt8]> = []

    /// Names for copies into `folder` (its exact bytes).
    init(folder: [UInt8]) {
        self.folder = folder
    }

    /// The name to copy `name` to, now taken for this export: `name` itself when this export has
    /// not used it (and, when `renaming`, nothing is at it in the folder), else with `renaming`
    /// the first numbered name free in both, else nil. `replacing` lets a file in the folder be
    /// replaced, so only this export's own names count as taken.
    mutating func claim(_ name: [UInt8], renaming: Bool, replacing: Bool) -> [UInt8]? {
        if isFree(name, checkingFolder: renaming && !replacing) {
            used.insert(name)
            return name
        }
        guard renaming else { return nil }
        for number in 2...Self.maximumNumber {
            let candidate = Self.numbered(name, number)
            if isFree(candidate, checkingFolder: !replacing) {
                used.insert(candidate)
                return candidate
            }
        }
        return nil
    }

    private func isFree(_ name: [UInt8], checkingFolder: Bool) -> Bool {
        guard !used.contains(name) else { return false }
        guard checkingFolder else { return true }
        var status = stat()
        return lstat(PathBytes(folder + [UInt8(ascii: "/")] + name).cString, &status) != 0 && errno == ENOENT
    }

    /// `name` with " (N)" before its extension ("IMG_0001 (2).jpg"; "README (2)" without one),
    /// the stem cut at a character boundary so the whole stays within NAME_MAX.
    static func numbered(_ name: [UInt8], _ number: Int) -> [UInt8] {
        let dot = name.lastIndex(of: UInt8(ascii: ".")).flatMap { $0 > 0 ? $0 : nil }
        var stem = Array(name[..<(dot ?? name.endIndex)])
        let tail = Array(" (\(number))".utf8) + Array(name[(dot ?? name.endIndex)...])
        if stem.count + tail.count > maximumLength {
            stem.removeLast(stem.count + tail.count - maximumLength)
            // Not in the middle of a UTF-8 sequence: drop continuation bytes and their lead.
            while let last = stem.last, last & 0xC0 == 0x80 { stem.removeLast() }
            if let last = stem.last, last >= 0xC0 { stem.removeLast() }
        }
        return stem + tail
    }
}
